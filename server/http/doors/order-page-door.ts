import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import type { OrderPageView } from "#server/contracts/order-page";
import { NotFound } from "#server/errors";
import { orderPageView } from "#server/services/orders/order-page";
import { PRIVATE_NO_STORE } from "#server/http/cache/cache-control";

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
