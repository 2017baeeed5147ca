import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import {
  ADMIN_DRAW_MESSAGES,
  drawFormToBody,
  type AdminDrawsActionData,
  type AdminDrawsView,
  type AdminDrawView,
} from "#server/contracts/admin-draws";
import { DRAW_MESSAGES, drawBeaconSchema, drawCreateSchema } from "#server/contracts/draws";
import { DomainError, Invalid, NotFound } from "#server/errors";
import { requireAdminPage } from "#server/http/auth";
import { statusOf } from "#server/http/error-status";
import { pathId } from "#server/http/rest";
import { readForm } from "#server/http/requests/request-body";
import { siteOrigin } from "#server/http/requests/site-origin";
import { drawNow } from "#server/services/drop/draw-run";
import { createDraw, deleteDraw, drawableProducts, drawRow, getDraw, listDrawsWithSizes } from "#server/services/drop/draws";

/*
 * /admin/draws (issue 26, decision 0047): the draws, a form to create one, Draw after the close
 * and Delete before entries open: the same services the REST doors call, as plain form posts
 * (with or without JavaScript), and one draw's winners at /admin/draws/{id}. Loaders run in
 * parallel with the layout's: each checks the admin.
 */

export async function adminDrawsLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const [{ draws }, products] = await Promise.all([listDrawsWithSizes(ctx), drawableProducts(ctx)]);
  return data<AdminDrawsView>({ draws, products });
}

/** /admin/draws/{id}: what GET /api/admin/draws/{id} answers, the winners and their claims; an unknown id is a 404. */
export async function adminDrawLoader({ request, params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  try {
    const draw = await getDraw(ctx, pathId(params.id, DRAW_MESSAGES.notFound));
    return data<AdminDrawView>({ draw, now: ctx.clock.now().toISOString() });
  } catch (error) {
    if (error instanceof NotFound) throw data(error.message, { status: 404 });
    throw error;
  }
}

const answer = (intent: string, ok: boolean, message: string, fields: Record<string, string[]> = {}, status = 200) =>
  data<AdminDrawsActionData>({ intent, ok, message, fields }, { status });

export async function adminDrawsAction({ request }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const form = await readForm(request);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = text("intent");
  try {
    if (intent === "create") {
      const parsed = drawFormToBody({
        productId: text("productId"),
        entriesOpenAt: text("entriesOpenAt"),
        entriesCloseAt: text("entriesCloseAt"),
        claimMinutes: text("claimMinutes"),
        units: text("units"),
      });
      if ("fields" in parsed) throw new Invalid(Object.values(parsed.fields)[0]![0]!, parsed.fields);
      const input = drawCreateSchema.safeParse(parsed.body);
      if (!input.success) throw Invalid.fromZod(input.error);
      const draw = await createDraw(ctx, input.data, siteOrigin(request, ctx.config));
      return answer(intent, true, ADMIN_DRAW_MESSAGES.created(draw.product.name), {}, 201);
    }
    if (intent === "draw" || intent === "delete") {
      const id = pathId(text("id"), DRAW_MESSAGES.notFound);
      const draw = await drawRow(ctx, id);
      if (intent === "delete") {
        await deleteDraw(ctx, id);
        return answer(intent, true, ADMIN_DRAW_MESSAGES.deleted);
      }
      const beacon = drawBeaconSchema.safeParse({ beacon: text("beacon") });
      if (!beacon.success) throw Invalid.fromZod(beacon.error);
      await drawNow(ctx, id, beacon.data.beacon, true);
      return answer(intent, true, ADMIN_DRAW_MESSAGES.drawn(draw.productName));
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return answer(intent, false, error.message, error.fieldErrors, statusOf(error));
  }
  return answer(intent, false, "Unknown form.", {}, 400);
}
