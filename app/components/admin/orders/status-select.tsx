import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ChevronDown } from "lucide-react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ORDER_STATUSES } from "#server/contracts/admin-orders";
import { ORDER_STATUS_STYLE, type OrderStatus } from "./badges";
import { notify } from "#app/components/toasts";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

/**
 * The status dropdown of one row, drawn as the status badge in the spec's colours. A native
 * select: keyboard, screen readers and the phone's own picker all work. Each row owns its
 * mutation, so only the row being saved is disabled while its update is pending.
 */
export function StatusSelect({ orderId, orderNumber, status }: { orderId: number; orderNumber: string; status: OrderStatus }) {
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

  return (
    <div className={cn("relative inline-flex w-36 items-center rounded-full border", style.className, update.isPending && "opacity-60")}>
      <Icon aria-hidden className="pointer-events-none absolute left-2.5 size-3.5" />
      <select
        aria-label={`Status of order ${orderNumber}`}
        value={shown}
        // Disabled until hydrated too: before that a change could not be saved.
        disabled={!hydrated || update.isPending}
        aria-busy={update.isPending}
        onChange={(event) => {
          const next = ORDER_STATUSES.find((value) => value === event.target.value);
          if (next && next !== status) update.mutate({ id: orderId, status: next });
        }}
        className="h-9 w-full cursor-pointer appearance-none rounded-full bg-transparent pr-8 pl-8 text-xs font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed"
      >
        {ORDER_STATUSES.map((value) => (
          <option key={value} value={value} className="bg-card text-foreground">
            {ORDER_STATUS_STYLE[value].label}
          </option>
        ))}
      </select>
      <ChevronDown aria-hidden className="pointer-events-none absolute right-2.5 size-3.5" />
    </div>
  );
}
