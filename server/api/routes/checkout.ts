import { jsonAnswer } from "#server/http/json-answer";
import {
  calculateTaxSchema,
  confirmOrderSchema,
  localCardSchema,
  processOrderSchema,
  shippingCalculateSchema,
} from "#server/contracts/checkout";
import { BOT_FIELD } from "#server/contracts/bots";
import { toRateView } from "#server/contracts/checkout-form";
import { toCents } from "#server/contracts/money";
import { cartSessionIdOf } from "#server/http/cart-session";
import { clientIpOf } from "#server/http/requests/client-ip";
import { siteOrigin } from "#server/http/requests/site-origin";
import { refuseFilledHoneypot } from "#server/services/drop/bots";
import { processOrder, quoteShipping } from "#server/services/checkout/checkout";
import { payWithTestCard } from "#server/services/checkout/local-payments";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { estimateTax } from "#server/services/checkout/tax";
import { route } from "#server/api/route";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";

export const checkoutRoutes = [
  /** POST /api/shipping/calculate: rates for this bag to the address, each with the `key` Process Order takes; `[]` when it cannot be shipped there. */
  route({
    method: "POST",
    path: "/api/shipping/calculate",
    guard: "public",
    input: shippingCalculateSchema,
    handle: async ({ request, input, ctx }) => {
      const { address } = input;
      const rates = await quoteShipping(ctx, await cartSessionIdOf(ctx, request), address);
      return jsonAnswer(rates.map(toRateView), { headers: NO_STORE_HEADERS });
    },
  }),

  /** POST /api/calculate-tax: the tax Process Order will charge this bag; taxRate is the effective rate. */
  route({
    method: "POST",
    path: "/api/calculate-tax",
    guard: "public",
    input: calculateTaxSchema,
    handle: async ({ request, input, ctx }) => {
      const tax = await estimateTax(ctx, {
        sessionId: await cartSessionIdOf(ctx, request),
        country: input.country,
        state: input.state,
        subtotalCents: toCents(input.subtotal),
        shippingCents: input.shippingCost === undefined ? undefined : toCents(input.shippingCost),
      });
      return jsonAnswer(tax, { headers: NO_STORE_HEADERS });
    },
  }),

  /** POST /api/process-order: holds the units and creates the payment; `{clientSecret, paymentIntentId, orderSummary}`. */
  route({
    method: "POST",
    path: "/api/process-order",
    guard: "public",
    needsPass: true,
    input: processOrderSchema,
    handle: async ({ request, input, context, ctx }) => {
      refuseFilledHoneypot(input[BOT_FIELD]);
      const result = await processOrder(ctx, {
        sessionId: await cartSessionIdOf(ctx, request),
        customer: input.customerInfo,
        shippingMethod: input.shippingMethod,
        clientIp: clientIpOf(context),
        siteOrigin: siteOrigin(request, ctx.config),
      });
      return jsonAnswer(result, { status: 201, headers: NO_STORE_HEADERS });
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
      return jsonAnswer(outcome, { status, headers: NO_STORE_HEADERS });
    },
  }),

  /**
   * POST /api/local-payments/confirm: the local test processor's stand-in for Stripe.js confirming
   * a card payment. Exists only in test mode.
   */
  route({
    method: "POST",
    path: "/api/local-payments/confirm",
    guard: "public",
    unavailable: (ctx) => (ctx.config.payments.mode !== "test" ? "The local test processor is off: payments go through Stripe." : null),
    input: localCardSchema,
    handle: async ({ input, ctx }) => {
      const payment = await payWithTestCard(ctx, { clientSecret: input.clientSecret }, input.cardNumber);
      if (!payment.paid) {
        return jsonAnswer({ status: payment.status, message: payment.message ?? "The payment did not go through." }, { status: 402 });
      }
      return jsonAnswer(payment.confirmation);
    },
  }),
];
