import { choiceLabel } from "#server/contracts/sizes-view";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, ExternalLink, RefreshCw, RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { LabelStatusBadge, OrderStatusBadge, RefundStatusBadge, TestOrderBadge } from "./badges";
import { canRefund, DATE_TIME, formatDate, parseAddress, type AdminOrder, type OrderDetail } from "./format";
import { formatUsd } from "#server/contracts/money";
import { Modal } from "./modal";
import { Spinner } from "#app/components/spinner";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";

interface OrderDetailDialogProps {
  /** The row that was opened: its number shows at once while the detail loads. */
  order: AdminOrder | null;
  onClose: () => void;
  onRefund: (order: AdminOrder) => void;
}

/** docs/spec.md §2 View: the order's fields, address, items, shipping label and refund history. */
export function OrderDetailDialog({ order, onClose, onRefund }: OrderDetailDialogProps) {
  const trpc = useTRPC();
  const detail = useQuery({ ...trpc.admin.orders.detail.queryOptions({ id: order?.id ?? 0 }), enabled: order !== null });
  return (
    <Modal
      open={order !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={order ? `Order ${order.orderNumber}` : "Order"}
      description={order ? `Placed ${formatDate(order.createdAt, DATE_TIME)} ET by ${order.customerName}` : undefined}
      footer={
        <>
          {order && detail.data && canRefund(detail.data) ? (
            <Button variant="outline" onClick={() => onRefund(order)}>
              <RotateCcw aria-hidden />
              Process Refund
            </Button>
          ) : null}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      {detail.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-8" label="Loading order" />
        </div>
      ) : detail.isError ? (
        <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
          <CircleAlert aria-hidden className="size-4" />
          {detail.error.message || "Failed to load the order."}
        </p>
      ) : (
        <OrderDetailBody order={detail.data} />
      )}
    </Modal>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h3 className="text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

/** Laid out like an order page: the money on the left, who and where on the right. */
function OrderDetailBody({ order }: { order: OrderDetail }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <OrderStatusBadge status={order.status} />
        <RefundStatusBadge status={order.refundStatus} />
        {order.test ? <TestOrderBadge /> : null}
        {order.paidAt ? null : <span className="text-xs text-muted-foreground">Not paid</span>}
      </div>
      <div className="grid gap-8 md:grid-cols-[minmax(0,1.35fr)_minmax(0,1fr)]">
        <div className="space-y-8">
          <Items order={order} />
          <RefundHistory refunds={order.refunds} />
          <Section title="Order">
            <dl>
              <Field label="Order ID">
                <span className="font-mono">{order.orderNumber}</span>
              </Field>
              <Field label="Payment">
                <span className="font-mono text-xs break-all">{order.paymentIntentId ?? "—"}</span>
              </Field>
              <Field label="Paid">{order.paidAt ? `${formatDate(order.paidAt, DATE_TIME)} ET` : "Not paid"}</Field>
              <Field label="Shipping method">{order.shippingMethodLabel ?? "—"}</Field>
              <Field label="Updated">{formatDate(order.updatedAt, DATE_TIME)} ET</Field>
            </dl>
          </Section>
        </div>
        <div className="space-y-8">
          <Customer order={order} />
          <ShippingLabels order={order} />
        </div>
      </div>
    </div>
  );
}

function Items({ order }: { order: OrderDetail }) {
  return (
    <Section title="Items">
      <ul className="divide-y divide-border rounded-md border border-border">
        {order.items.map((item) => (
          <li key={item.id} className="flex items-baseline justify-between gap-4 px-3 py-2.5 text-sm">
            <span className="min-w-0">
              <span className="font-medium">{item.productName}</span>
              {item.size !== null || item.color !== null ? (
                <span className="block text-xs" data-testid="item-choice">
                  {choiceLabel(item.size, item.color)}
                </span>
              ) : null}
              <span className="block text-xs text-muted-foreground">
                {item.quantity} × {formatUsd(item.productPrice)}
              </span>
            </span>
            <span className="tabular-nums">{formatUsd(item.total)}</span>
          </li>
        ))}
      </ul>
      <dl className="tabular-nums">
        <Field label="Subtotal">{formatUsd(order.subtotal)}</Field>
        {order.discount > 0 ? <Field label="Discount">−{formatUsd(order.discount)}</Field> : null}
        <Field label="Tax">{formatUsd(order.tax)}</Field>
        <Field label="Shipping">{formatUsd(order.shipping)}</Field>
        <div className="mt-1 flex justify-between border-t border-border pt-2.5 text-base font-semibold">
          <dt>Total</dt>
          <dd>{formatUsd(order.total)}</dd>
        </div>
        {order.refundAmount > 0 ? (
          <Field label="Refunded">
            <span className="text-violet-300">−{formatUsd(order.refundAmount)}</span>
          </Field>
        ) : null}
      </dl>
    </Section>
  );
}

function Customer({ order }: { order: OrderDetail }) {
  const address = parseAddress(order.shippingAddress);
  return (
    <Section title="Customer">
      <div className="space-y-3 text-sm leading-relaxed">
        <div>
          <p className="font-medium">{order.customerName}</p>
          <a
            className="break-all text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
            href={`mailto:${order.customerEmail}`}
          >
            {order.customerEmail}
          </a>
          {order.customerPhone ? <p className="text-muted-foreground">{order.customerPhone}</p> : null}
        </div>
        <div>
          <p className="text-xs text-muted-foreground">Ships to</p>
          {address ? (
            <address className="not-italic" data-testid="shipping-address">
              {address.street}
              <br />
              {[address.city, [address.state, address.zipCode].filter(Boolean).join(" ")].filter(Boolean).join(", ")}
              {address.country ? (
                <>
                  <br />
                  {address.country}
                </>
              ) : null}
            </address>
          ) : (
            // docs/spec.md §3: an address that is not readable JSON is shown as stored.
            <pre className="mt-1 rounded-md bg-muted p-3 font-mono text-xs break-words whitespace-pre-wrap" data-testid="shipping-address">
              {order.shippingAddress}
            </pre>
          )}
        </div>
      </div>
    </Section>
  );
}

function ShippingLabels({ order }: { order: OrderDetail }) {
  const labels = order.shippingLabels;
  const canRetry = Boolean(order.paidAt) && order.status !== "cancelled" && order.refundStatus !== "completed";
  return (
    <Section title="Shipping label">
      {labels.length === 0 ? <p className="text-sm text-muted-foreground">No shipping label yet.</p> : null}
      {labels.map((label) => {
        const failed = label.status === "failed" || label.status === "error";
        return (
          <div key={label.id} className="space-y-2 rounded-md border border-border p-3" data-testid="shipping-label">
            <dl>
              <Field label="Status">
                <LabelStatusBadge status={label.status} />
              </Field>
              {label.trackingNumber ? (
                <Field label="Tracking number">
                  <span className="font-mono">{label.trackingNumber}</span>
                </Field>
              ) : null}
              <Field label="Carrier">{label.carrier}</Field>
              <Field label="Cost">{formatUsd(label.cost)}</Field>
            </dl>
            {failed ? (
              <div role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
                <p className="font-medium text-red-200">{label.errorMessage || "The label could not be created."}</p>
                <p className="mt-1 text-muted-foreground">Manual shipping label creation required</p>
                {canRetry ? <BuyLabelAgain orderId={order.id} /> : null}
              </div>
            ) : null}
            {label.labelUrl ? (
              <a
                href={label.labelUrl}
                target="_blank"
                rel="noreferrer"
                className="inline-flex min-h-9 items-center gap-1.5 text-sm font-medium underline-offset-4 hover:underline"
              >
                View shipping label
                <ExternalLink aria-hidden className="size-3.5" />
              </a>
            ) : null}
          </div>
        );
      })}
      {/* The slip the packer reads, for any order: a carrier's label page does not list the pieces. */}
      <a
        href={`/api/admin/orders/${order.id}/packing-slip`}
        target="_blank"
        rel="noreferrer"
        className="inline-flex min-h-9 items-center gap-1.5 text-sm font-medium underline-offset-4 hover:underline"
      >
        Packing slip
        <ExternalLink aria-hidden className="size-3.5" />
      </a>
    </Section>
  );
}

/** The store retried the label for about an hour; after that (or sooner) the admin can ask again. */
function BuyLabelAgain({ orderId }: { orderId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const buy = useMutation(
    trpc.admin.orders.buyLabel.mutationOptions({
      onSuccess: (label) => notify.success("Label Created", label.trackingNumber ? `Tracking number ${label.trackingNumber}` : undefined),
      onError: (error) => notify.error("Failed to Create Label", error.message),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() }),
    }),
  );
  return (
    <Button variant="outline" size="sm" className="mt-3" disabled={buy.isPending} onClick={() => buy.mutate({ id: orderId })}>
      {buy.isPending ? <Spinner className="size-4" label="Buying label" /> : <RefreshCw aria-hidden />}
      {buy.isPending ? "Buying Label..." : "Buy Label Again"}
    </Button>
  );
}

function RefundHistory({ refunds }: { refunds: OrderDetail["refunds"] }) {
  return (
    <Section title="Refund history">
      {refunds.length === 0 ? (
        <p className="text-sm text-muted-foreground">No refunds.</p>
      ) : (
        <ul className="space-y-2" data-testid="refund-history">
          {refunds.map((refund) => (
            <li key={refund.id} className="rounded-md border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold tabular-nums">{formatUsd(refund.amount)}</span>
                <RefundStatusBadge status={refund.status} />
              </div>
              <p className="mt-1 text-muted-foreground">
                <time dateTime={refund.createdAt}>{formatDate(refund.createdAt, DATE_TIME)}</time> ET
                {refund.shippingRefunded ? " · shipping included" : " · shipping not refunded"}
              </p>
              {refund.reason ? <p className="mt-1.5">{refund.reason}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
