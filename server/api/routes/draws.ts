import { DRAW_MESSAGES, drawBeaconSchema, drawCreateSchema, drawEntrySchema } from "#server/contracts/draws";
import { pathId } from "#server/http/rest";
import { clientIpOf } from "#server/http/requests/client-ip";
import { siteOrigin } from "#server/http/requests/site-origin";
import { drawEntriesCsv } from "#server/services/drop/draw-csv";
import { enterDraw } from "#server/services/drop/draw-entries";
import { drawNow } from "#server/services/drop/draw-run";
import { createDraw, deleteDraw, drawProof, getDraw, listDraws, publicDraw } from "#server/services/drop/draws";
import { route } from "#server/api/route";

/** Draws (issue 26, decision 0047): the admin's, and the public face and proof of each. */
const idOf = (params: Record<string, string | undefined>) => pathId(params.id, DRAW_MESSAGES.notFound);

export const drawRoutes = [
  /** POST /api/admin/draws `{ productId, entriesOpenAt, entriesCloseAt, claimMinutes?, units? }` → 201 the draw with its commitment. */
  route({
    method: "POST",
    path: "/api/admin/draws",
    guard: "admin",
    input: drawCreateSchema,
    status: 201,
    handle: ({ request, input, ctx }) => createDraw(ctx, input, siteOrigin(request, ctx.config)),
  }),

  /** GET /api/admin/draws → `{ draws: [...] }`, newest first. */
  route({ method: "GET", path: "/api/admin/draws", guard: "admin", handle: ({ ctx }) => listDraws(ctx) }),

  /** GET /api/admin/draws/{id}/entries.csv: every entry with the proof's numbers, as a download. */
  route({
    method: "GET",
    path: "/api/admin/draws/:id/entries.csv",
    guard: "admin",
    handle: async ({ params, ctx }) => {
      const { filename, csv } = await drawEntriesCsv(ctx, idOf(params));
      return new Response(csv, {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"` },
      });
    },
  }),

  /** GET /api/admin/draws/{id}: entries per size, confirmed, winners, claimed, paid, how far down each size went. */
  route({ method: "GET", path: "/api/admin/draws/:id", guard: "admin", handle: ({ params, ctx }) => getDraw(ctx, idOf(params)) }),

  /** POST /api/admin/draws/{id}/draw `{ beacon? }` → the draw, drawn (409 before the close or once drawn). */
  route({
    method: "POST",
    path: "/api/admin/draws/:id/draw",
    guard: "admin",
    input: drawBeaconSchema,
    handle: async ({ params, input, ctx }) => {
      const id = idOf(params);
      await drawNow(ctx, id, input.beacon, true);
      return getDraw(ctx, id);
    },
  }),

  /** DELETE /api/admin/draws/{id} → `{ message, id }`; only before entries open (409 after). */
  route({
    method: "DELETE",
    path: "/api/admin/draws/:id",
    guard: "admin",
    handle: async ({ params, ctx }) => {
      const id = idOf(params);
      await deleteDraw(ctx, id);
      return { message: "Draw deleted.", id };
    },
  }),

  /** GET /api/draws/{id} → `{ id, product, state, entriesOpenAt, entriesCloseAt, commitment, entryCount, chain, sizes }`. */
  route({ method: "GET", path: "/api/draws/:id", guard: "public", handle: ({ params, ctx }) => publicDraw(ctx, idOf(params)) }),

  /** POST /api/draws/{id}/entries `{ email, size?, name? }` → 202, the same for a repeat. */
  route({
    method: "POST",
    path: "/api/draws/:id/entries",
    guard: "public",
    input: drawEntrySchema,
    status: 202,
    handle: ({ params, input, context, ctx }) => enterDraw(ctx, idOf(params), input, clientIpOf(context)),
  }),

  /** GET /api/draws/{id}/proof: the public proof once drawn (404 before). */
  route({ method: "GET", path: "/api/draws/:id/proof", guard: "public", handle: ({ params, ctx }) => drawProof(ctx, idOf(params)) }),
];
