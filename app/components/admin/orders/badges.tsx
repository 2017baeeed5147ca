import { Ban, CircleAlert, CircleCheck, Clock, FlaskConical, Package, PackageCheck, RotateCcw, Truck, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { ORDER_STATUSES } from "#server/contracts/admin-orders";
import { cn } from "#app/lib/utils";

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** docs/spec.md §9: pending yellow, processing blue, shipped green, delivered emerald, cancelled red. */
export const ORDER_STATUS_STYLE: Record<OrderStatus, { label: string; className: string; icon: LucideIcon }> = {
  pending: { label: "Pending", className: "border-yellow-400/40 bg-yellow-400/15 text-yellow-200", icon: Clock },
  processing: { label: "Processing", className: "border-blue-400/40 bg-blue-500/15 text-blue-200", icon: Package },
  shipped: { label: "Shipped", className: "border-green-400/40 bg-green-500/15 text-green-200", icon: Truck },
  delivered: { label: "Delivered", className: "border-emerald-300/50 bg-emerald-400/25 text-emerald-100", icon: PackageCheck },
  cancelled: { label: "Cancelled", className: "border-red-400/40 bg-red-500/15 text-red-200", icon: Ban },
};

const base = "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-medium";

export function Badge({ className, children, icon: Icon }: { className?: string; children: ReactNode; icon?: LucideIcon }) {
  return (
    <span className={cn(base, className)}>
      {Icon ? <Icon aria-hidden className="size-3.5" /> : null}
      {children}
    </span>
  );
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const style = ORDER_STATUS_STYLE[status];
  return (
    <Badge className={style.className} icon={style.icon}>
      {style.label}
    </Badge>
  );
}

/**
 * docs/spec.md §4: an order's refundStatus none shows "No Refund", completed "Refunded"; any other value
 * (a refund's own "succeeded", say) is shown as it is, in the default badge.
 */
export function RefundStatusBadge({ status }: { status: string }) {
  if (status === "none") return <Badge className="border-border text-muted-foreground">No Refund</Badge>;
  if (status === "completed")
    return (
      <Badge className="border-violet-400/40 bg-violet-500/15 text-violet-200" icon={RotateCcw}>
        Refunded
      </Badge>
    );
  if (status === "pending") return <Badge className="border-yellow-400/40 bg-yellow-400/15 text-yellow-200">Refund pending</Badge>;
  return <Badge className="border-transparent bg-primary text-primary-foreground">{status}</Badge>;
}

/** Shipping label status: created is the good state; failed and error need a person. */
export function LabelStatusBadge({ status }: { status: string }) {
  if (status === "created")
    return (
      <Badge className="border-green-400/40 bg-green-500/15 text-green-200" icon={CircleCheck}>
        created
      </Badge>
    );
  if (status === "failed" || status === "error")
    return (
      <Badge className="border-red-400/40 bg-red-500/15 text-red-200" icon={CircleAlert}>
        {status}
      </Badge>
    );
  return <Badge className="border-border text-muted-foreground">{status}</Badge>;
}

/** An order placed in test mode: paid with a test card, so no money came in (not in revenue). */
export function TestOrderBadge() {
  return (
    <Badge className="border-amber-300/50 bg-amber-400/15 text-amber-200" icon={FlaskConical}>
      <span title="Placed in test mode: paid with a test card, no money was taken">Test</span>
    </Badge>
  );
}
