import { Eye, RotateCcw } from "lucide-react";
import { useHydrated } from "remix-utils/use-hydrated";
import { RefundStatusBadge, TestOrderBadge } from "./badges";
import { canRefund, DATE, formatDate, type AdminOrder } from "./format";
import { formatUsd } from "#server/contracts/money";
import { StatusSelect } from "./status-select";
import { Button } from "#app/components/ui/button";

interface OrdersTableProps {
  orders: AdminOrder[];
  onView: (order: AdminOrder) => void;
  onRefund: (order: AdminOrder) => void;
}

const th =
  "sticky top-0 z-10 bg-card px-4 py-3 text-left text-xs font-semibold tracking-[0.12em] whitespace-nowrap text-muted-foreground uppercase shadow-[inset_0_-1px_0_var(--color-border)]";
const td = "md:px-4 md:py-3 md:align-middle";

/**
 * docs/spec.md §2 Orders: Order ID, Customer, Status, Total, Date, Actions, scrolling inside 600px.
 * Below md the same table lays each row out as a card (grid placement per cell), so a phone
 * sees every column of an order without scrolling sideways.
 */
export function OrdersTable({ orders, onView, onRefund }: OrdersTableProps) {
  const hydrated = useHydrated();
  return (
    <div className="max-h-[600px] overflow-auto rounded-lg border border-border bg-card" data-testid="orders-scroll">
      <table className="w-full border-separate border-spacing-0 text-sm max-md:block md:min-w-[52rem]">
        <caption className="sr-only">Orders, newest first. Dates in Eastern Time.</caption>
        <thead className="max-md:sr-only">
          <tr>
            <th scope="col" className={th}>
              Order ID
            </th>
            <th scope="col" className={th}>
              Customer
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={`${th} text-right`}>
              Total
            </th>
            <th scope="col" className={th}>
              Date
            </th>
            <th scope="col" className={`${th} text-right`}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="max-md:block max-md:divide-y max-md:divide-border md:[&>tr:not(:last-child)>td]:border-b md:[&>tr>td]:border-border">
          {orders.map((order) => (
            <tr
              key={order.id}
              data-testid="order-row"
              data-order-id={order.id}
              className="transition-colors hover:bg-foreground/[0.03] max-md:grid max-md:grid-cols-[1fr_auto] max-md:items-center max-md:gap-x-4 max-md:gap-y-3 max-md:p-4"
            >
              <td
                className={`${td} font-mono text-[0.8125rem] font-medium tracking-wide whitespace-nowrap max-md:col-start-1 max-md:row-start-1`}
              >
                {order.orderNumber}
                {order.test ? (
                  <span className="ml-2 align-middle font-sans tracking-normal">
                    <TestOrderBadge />
                  </span>
                ) : null}
              </td>
              <td className={`${td} min-w-0 max-md:col-span-2 max-md:row-start-2 md:max-w-64`}>
                <div className="truncate font-medium">{order.customerName}</div>
                <div className="truncate text-xs text-muted-foreground">{order.customerEmail}</div>
              </td>
              <td className={`${td} max-md:col-start-1 max-md:row-start-3`}>
                <div className="flex flex-wrap items-center gap-2">
                  <StatusSelect orderId={order.id} orderNumber={order.orderNumber} status={order.status} paid={Boolean(order.paidAt)} />
                  {/* docs/spec.md §4: a refunded order says so beside its status, which the admin may still set. */}
                  {order.refundStatus === "none" ? null : <RefundStatusBadge status={order.refundStatus} />}
                </div>
              </td>
              <td className={`${td} text-right whitespace-nowrap tabular-nums max-md:col-start-2 max-md:row-start-1`}>
                <div className="font-medium">{formatUsd(order.total)}</div>
                <TotalNote order={order} />
              </td>
              <td className={`${td} whitespace-nowrap max-md:col-start-2 max-md:row-start-3 max-md:text-right`}>
                <div>{formatDate(order.createdAt, DATE)}</div>
                <div className="text-xs text-muted-foreground">{formatDate(order.createdAt, "HH:mm")} ET</div>
              </td>
              <td className={`${td} text-right whitespace-nowrap max-md:col-span-2 max-md:row-start-4`}>
                <div className="flex gap-2 md:inline-flex">
                  <Button
                    size="sm"
                    variant="outline"
                    className="max-md:h-10 max-md:flex-1"
                    disabled={!hydrated}
                    onClick={() => onView(order)}
                    aria-label={`View order ${order.orderNumber}`}
                  >
                    <Eye aria-hidden />
                    View
                  </Button>
                  {/* Unpaid, refunded or being refunded: nothing to refund, so no button that leads nowhere. */}
                  {canRefund(order) ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="max-md:h-10 max-md:flex-1 max-md:border max-md:border-border"
                      disabled={!hydrated}
                      onClick={() => onRefund(order)}
                      aria-label={`Process refund for order ${order.orderNumber}`}
                    >
                      <RotateCcw aria-hidden />
                      Refund
                    </Button>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Under the total: what was refunded, or that the buyer never paid (an abandoned checkout). */
function TotalNote({ order }: { order: AdminOrder }) {
  if (order.refundStatus === "completed") return <div className="text-xs text-violet-300">Refunded {formatUsd(order.refundAmount)}</div>;
  if (!order.paidAt) return <div className="text-xs text-muted-foreground">Unpaid</div>;
  return null;
}
