import { calculateTaxSchema, confirmOrderSchema, localCardSchema, processOrderSchema, shippingCalculateSchema } from "../../contracts/checkout";
import { cartSessionIdOf } from "../../http/cart-session";
import { clientIpOf } from "../../http/client-ip";
import { payLocalIntent } from "../../integrations/payments/local";
import { quoteTax } from "../../integrations/tax";
import { processOrder, quoteShipping } from "../../services/checkout";
import { confirmPayment } from "../../services/order-confirmation";
import { route } from "../route";

export const checkoutRoutes = [
  /** POST /api/shipping/calculate: rates for this bag to the address, `[]` when it cannot be shipped there. */
  route({
    method: "POST",
    path: "/api/shipping/calculate",
    guard: "public",
    input: shippingCalculateSchema,
    handle: async ({ request, input, ctx }) => {
      const { address } = input;
      const rates = await quoteShipping(ctx, await cartSessionIdOf(ctx, request), address);
      return Response.json(
        rates.map((r) => ({ carrier: r.carrier, method: r.method, cost: r.costCents / 100, description: r.description, estimatedDays: r.estimatedDays })),
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  }),

  /** POST /api/calculate-tax: an estimate for the screen; process-order computes the real tax itself. */
  route({
    method: "POST",
    path: "/api/calculate-tax",
    guard: "public",
    input: calculateTaxSchema,
    handle: ({ input }) => {
      const tax = quoteTax({ country: input.country, state: input.state, subtotalCents: Math.round(input.subtotal * 100) });
      return Response.json({ taxRate: tax.taxRate, taxAmount: tax.taxCents / 100, taxLabel: tax.taxLabel });
    },
  }),

  /** POST /api/process-order: holds the units and creates the payment; `{clientSecret, paymentIntentId, orderSummary}`. */
  route({
    method: "POST",
    path: "/api/process-order",
    guard: "public",
    input: processOrderSchema,
    handle: async ({ request, input, context, ctx }) => {
      const result = await processOrder(ctx, {
        sessionId: await cartSessionIdOf(ctx, request),
        customer: input.customerInfo,
        shippingMethod: input.shippingMethod,
        clientIp: clientIpOf(context),
      });
      return Response.json(result, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  }),

  /**
   * POST /api/confirm-order: asks the provider whether the payment succeeded and, if so, completes
   * the order (once, however often it is called). Other fields the spec's client sends are ignored:
   * the order already holds them.
   */
  route({
    method: "POST",
    path: "/api/confirm-order",
    guard: "public",
    input: confirmOrderSchema,
    handle: async ({ input, ctx }) => {
      const { paymentIntentId } = input;
      const outcome = await confirmPayment(ctx, paymentIntentId);
      const status = outcome.status === "paid" ? 200 : outcome.status === "pending" ? 202 : 402;
      return Response.json(outcome, { status, headers: { "Cache-Control": "no-store" } });
    },
  }),

  /**
   * POST /api/local-payments/confirm: the local test processor's stand-in for Stripe.js confirming
   * a card payment. Exists only when Stripe is not configured.
   */
  route({
    method: "POST",
    path: "/api/local-payments/confirm",
    guard: "public",
    unavailable: (ctx) => (ctx.config.stripe.secretKey ? "The local test processor is off: payments go through Stripe." : null),
    input: localCardSchema,
    handle: async ({ input, ctx }) => {
      const intent = await payLocalIntent(ctx, input);
      if (intent.status !== "succeeded") {
        return Response.json({ status: intent.status, message: intent.lastError ?? "The payment did not go through." }, { status: 402 });
      }
      return Response.json(await confirmPayment(ctx, intent.id));
    },
  }),
];
