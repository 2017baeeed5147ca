import type { AppContext } from "#server/context";
import { localPayments } from "./local";
import { stripePayments } from "./stripe";
import type { PaymentProvider } from "./types";

export type { PaymentIntentView, PaymentProvider } from "./types";

/** The processor of the mode the configuration decided (server/config.ts `paymentsFrom`). */
export function paymentsFor(ctx: AppContext): PaymentProvider {
  const payments = ctx.config.payments;
  return payments.mode === "stripe" ? stripePayments(payments.secretKey) : localPayments(ctx);
}
