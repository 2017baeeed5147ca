import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "#app/lib/trpc";
import type { Address } from "#server/contracts/checkout-form";
import { formatStoreTime } from "#server/contracts/store-time";

type Outputs = inferRouterOutputs<AppRouter>["admin"]["orders"];
export type AdminOrder = Outputs["list"]["orders"][number];
export type OrderDetail = Outputs["detail"];
export type RefundEligibility = Outputs["refundEligibility"];

// Admin dates are shown in the store's zone, so the server-rendered table and the browser agree
// to the minute and nothing shifts on hydration.
export const DATE = "MMM dd, yyyy";
/** docs/spec.md §9: refund history dates. */
export const DATE_TIME = "MMM dd, yyyy HH:mm";

/**
 * A refund is offered for a paid order not yet refunded. One being refunded opens the dialog too: the
 * server's eligibility says whether it is still under way or was cut off and can be finished.
 */
export const canRefund = (order: Pick<AdminOrder, "paidAt" | "refundStatus">): boolean =>
  Boolean(order.paidAt) && order.refundStatus !== "completed";

export const formatDate = (iso: string | null | undefined, pattern: string = DATE): string => formatStoreTime(iso, pattern);

/** docs/spec.md §3: the shipping address is JSON text; anything unreadable is shown as it is stored. */
export function parseAddress(text: string): Address | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return null;
    const field = (key: string) => {
      const v = (value as Record<string, unknown>)[key];
      return typeof v === "string" || typeof v === "number" ? String(v) : "";
    };
    const address = {
      street: field("street"),
      city: field("city"),
      state: field("state"),
      zipCode: field("zipCode"),
      country: field("country"),
    };
    return address.street || address.city || address.zipCode ? address : null;
  } catch {
    return null;
  }
}
