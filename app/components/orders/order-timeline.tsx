import { Check } from "lucide-react";
import type { OrderPageView, TimelineStep } from "#server/contracts/order-page";
import { formatUsd } from "#server/contracts/money";
import { formatStoreTime } from "#server/contracts/store-time";

const LABELS: Record<TimelineStep, string> = {
  placed: "Order placed",
  paid: "Paid",
  label_created: "Shipping label created",
  shipped: "Shipped",
  delivered: "Delivered",
  refunded: "Refunded",
  cancelled: "Cancelled",
};

/** What happened to the order, oldest first, with the tracking under "Shipped" (or the label). */
export function OrderTimeline({ order }: { order: OrderPageView }) {
  const trackingStep = order.timeline.some((step) => step.status === "shipped") ? "shipped" : "label_created";
  return (
    <ol className="space-y-5" data-testid="order-timeline">
      {order.timeline.map((step) => (
        <li key={step.status} className="flex gap-3" data-step={step.status}>
          <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-foreground text-background">
            <Check className="size-3.5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <p className="font-medium">
              {LABELS[step.status]}
              {step.status === "refunded" ? ` ${formatUsd(order.refundAmount)}` : ""}
            </p>
            <p className="text-sm text-muted-foreground">
              <time dateTime={step.at}>{formatStoreTime(step.at, "MMM d, yyyy, h:mm a zzz")}</time>
            </p>
            {step.status === trackingStep && order.tracking ? (
              <p className="mt-1 text-sm break-all" data-testid="order-tracking">
                {order.tracking.carrier}{" "}
                {order.tracking.url ? (
                  <a className="underline underline-offset-4" href={order.tracking.url} rel="noreferrer noopener" target="_blank">
                    {order.tracking.number}
                  </a>
                ) : (
                  <span className="font-mono">{order.tracking.number}</span>
                )}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
