import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { ORDER_PAGE_MESSAGES, orderLookupSchema, type OrderPageView } from "#server/contracts/order-page";
import { Invalid, NotFound, TooMany } from "#server/errors";
import { orderPageView } from "#server/services/orders/order-page";
import { lookUpOrder } from "#server/services/orders/order-lookup";
import { NO_STORE_HEADERS, PRIVATE_NO_STORE } from "#server/http/cache/cache-control";
import { clientIpOf } from "#server/http/requests/client-ip";
import { readForm } from "#server/http/requests/request-body";
import { siteOrigin } from "#server/http/requests/site-origin";

/**
 * /orders/{token}: the buyer's order page (issue 25). The token is the only key: the page is one
 * buyer's, kept by no cache and no search engine.
 */
export const ORDER_PAGE_HEADERS = { "Cache-Control": PRIVATE_NO_STORE, "X-Robots-Tag": "noindex" };

export async function orderPageLoader({ params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  try {
    const view = await orderPageView(ctx, (params.token ?? "").slice(0, 200));
    return data<OrderPageView>(view, { headers: ORDER_PAGE_HEADERS });
  } catch (error) {
    if (error instanceof NotFound) throw new Response(error.message, { status: 404, headers: ORDER_PAGE_HEADERS });
    throw error;
  }
}

export interface OrderLookupActionData {
  /** The one answer whether or not the order exists. */
  sent: string | null;
  errors: Partial<Record<"email" | "orderNumber", string[]>>;
  values: { email: string; orderNumber: string };
  /** Refused before anything was looked up (too many tries). */
  refusal: string | null;
}

/** /orders: "Find my order". The same answer for a real and a made-up order (issue 25). */
export async function orderLookupAction({ request, context }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const form = await readForm(request);
  const values = { email: String(form.get("email") ?? "").slice(0, 300), orderNumber: String(form.get("orderNumber") ?? "").slice(0, 60) };
  const reply = (fields: Partial<OrderLookupActionData>, status = 200) =>
    data<OrderLookupActionData>({ sent: null, errors: {}, values, refusal: null, ...fields }, { status, headers: NO_STORE_HEADERS });
  const parsed = orderLookupSchema.safeParse(values);
  if (!parsed.success) return reply({ errors: Invalid.fromZod(parsed.error).fieldErrors }, 400);
  try {
    await lookUpOrder(ctx, parsed.data, { clientIp: clientIpOf(context), origin: siteOrigin(request, ctx.config) });
    return reply({ sent: ORDER_PAGE_MESSAGES.lookupSent, values: { email: "", orderNumber: "" } }, 202);
  } catch (error) {
    if (error instanceof TooMany) return reply({ refusal: error.message }, 429);
    throw error;
  }
}
