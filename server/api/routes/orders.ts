import { orderLookupSchema, ORDER_PAGE_MESSAGES } from "#server/contracts/order-page";
import { clientIpOf } from "#server/http/requests/client-ip";
import { siteOrigin } from "#server/http/requests/site-origin";
import { orderPageAnswer } from "#server/services/orders/order-page";
import { lookUpOrder } from "#server/services/orders/order-lookup";
import { route } from "#server/api/route";

export const orderRoutes = [
  /**
   * GET /api/orders/{token}: the buyer's order, for whoever holds its link (issue 25). Any other
   * token: 404, after the same lookup. `private, no-store` (a personal answer).
   */
  route({
    method: "GET",
    path: "/api/orders/:token",
    guard: "public",
    personal: true,
    handle: ({ params, ctx }) => orderPageAnswer(ctx, (params.token ?? "").slice(0, 200)),
  }),

  /**
   * POST /api/orders/lookup {email, orderNumber} → 202, the same answer whether or not the order
   * exists; the link goes to the order's own address only. 429 past the allowances.
   */
  route({
    method: "POST",
    path: "/api/orders/lookup",
    guard: "public",
    input: orderLookupSchema,
    status: 202,
    handle: async ({ request, input, context, ctx }) => {
      await lookUpOrder(ctx, input, { clientIp: clientIpOf(context), origin: siteOrigin(request, ctx.config) });
      return { message: ORDER_PAGE_MESSAGES.lookupSent };
    },
  }),
];
