import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ChevronDown } from "lucide-react";
import { useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ORDER_STATUSES } from "#server/contracts/admin-orders";
import { ORDER_STATUS_STYLE, type OrderStatus } from "./badges";
import { Modal } from "./modal";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

/**
 * The status dropdown of one row, drawn as the status badge in the spec's colours. A native
 * select: keyboard, screen readers and the phone's own picker all work. Each row owns its
 * mutation, so only the row being saved is disabled while its update is pending.
 * Sending out an unpaid order is allowed (docs/spec.md §4: any status on any order; the REST call
 * asks nothing), but here it is confirmed first, naming the risk.
 */
export function StatusSelect({
  orderId,
  orderNumber,
  status,
  paid,
}: {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  paid: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const update = useMutation(
    trpc.admin.orders.setStatus.mutationOptions({
      onSuccess: (order) =>
        notify.success("Status updated", `Order ${order.orderNumber} is now ${ORDER_STATUS_STYLE[order.status].label.toLowerCase()}.`),
      onError: () => notify.error("Error updating status", "Failed to update order status"),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() }),
    }),
  );
  // While saving, show the chosen value rather than snapping back to the old one.
  const shown = update.isPending && update.variables ? update.variables.status : status;
  const style = ORDER_STATUS_STYLE[shown];
  const Icon = style.icon;
  // The status an unpaid order is about to be sent out with, while the admin confirms it.
  const [confirming, setConfirming] = useState<OrderStatus | null>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const save = (next: OrderStatus) => update.mutate({ id: orderId, status: next });

  return (
    <div className={cn("relative inline-flex w-36 items-center rounded-full border", style.className, update.isPending && "opacity-60")}>
      <Icon aria-hidden className="pointer-events-none absolute left-2.5 size-3.5" />
      <select
        ref={selectRef}
        aria-label={`Status of order ${orderNumber}`}
        value={shown}
        // Disabled until hydrated: before that a change could not be saved. While saving it is
        // aria-disabled instead, so the keyboard focus stays on it rather than dropping to the body.
        disabled={!hydrated}
        aria-disabled={update.isPending || undefined}
        aria-busy={update.isPending}
        onChange={(event) => {
          if (update.isPending) return;
          const next = ORDER_STATUSES.find((value) => value === event.target.value);
          if (!next || next === status) return;
          if (!paid && SENT_OUT.has(next)) setConfirming(next);
          else save(next);
        }}
        className="h-9 w-full cursor-pointer appearance-none rounded-full bg-transparent pr-8 pl-8 text-xs font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed aria-disabled:cursor-wait"
      >
        {ORDER_STATUSES.map((value) => (
          <option key={value} value={value} className="bg-card text-foreground">
            {ORDER_STATUS_STYLE[value].label}
          </option>
        ))}
      </select>
      <ChevronDown aria-hidden className="pointer-events-none absolute right-2.5 size-3.5" />
      <Modal
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        size="sm"
        role="alertdialog"
        returnFocusTo={selectRef}
        title={`Mark as ${confirming ? ORDER_STATUS_STYLE[confirming].label.toLowerCase() : "sent"}?`}
        description={`This order is not paid. Order ${orderNumber} has no payment: sending it out gives the goods away.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                if (confirming) save(confirming);
                setConfirming(null);
              }}
            >
              Mark as {confirming ? ORDER_STATUS_STYLE[confirming].label : ""}
            </Button>
          </>
        }
      />
    </div>
  );
}

/** The statuses that send goods out of the door. */
const SENT_OUT: ReadonlySet<OrderStatus> = new Set(["shipped", "delivered"]);
