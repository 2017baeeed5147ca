import type { AppContext } from "../../context";
import { localPayments } from "./local";
import { stripePayments } from "./stripe";
import type { PaymentProvider } from "./types";

export type { PaymentIntentView, PaymentProvider } from "./types";

/** Stripe when STRIPE_SECRET_KEY is set, the local test processor otherwise. */
export function paymentsFor(ctx: AppContext): PaymentProvider {
  const key = ctx.config.stripe.secretKey;
  return key ? stripePayments(key) : localPayments(ctx);
}
