import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CircleCheck } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { refundSchema } from "#server/contracts/admin-orders";
import { RefundStatusBadge } from "./badges";
import { DATE_TIME, formatDate, type RefundEligibility } from "./format";
import { formatUsd } from "#server/contracts/money";
import { Modal } from "./modal";
import { Spinner } from "#app/components/spinner";
import { dismissToast, notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

export interface RefundTarget {
  id: number;
  orderNumber: string;
  customerName: string;
}

/**
 * docs/spec.md §4 Refund flow: eligibility loads; if eligible, a reason (required) and "Include shipping";
 * Process Refund opens "Confirm Refund"; "Yes, Process Refund" refunds. On success both dialogs
 * close and the form resets; the list, the detail and the eligibility are refetched.
 */
export function RefundDialog({ target, onClose }: { target: RefundTarget | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [includeShipping, setIncludeShipping] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const ids = { reason: useId(), reasonError: useId(), shipping: useId() };
  // The "Reason Required" toast, dismissed once a reason is given so it does not linger.
  const reasonToast = useRef<string | null>(null);

  // A dialog closed from outside (by the dialog beneath, on Escape) opens clean next time.
  const [openFor, setOpenFor] = useState(target?.id ?? null);
  if ((target?.id ?? null) !== openFor) {
    setOpenFor(target?.id ?? null);
    setReason("");
    setReasonError(null);
    setIncludeShipping(false);
    setConfirming(false);
  }

  const eligibility = useQuery({ ...trpc.admin.orders.refundEligibility.queryOptions({ id: target?.id ?? 0 }), enabled: target !== null });

  const close = () => {
    setReason("");
    setReasonError(null);
    setIncludeShipping(false);
    setConfirming(false);
    onClose();
  };

  const refund = useMutation(
    trpc.admin.orders.refund.mutationOptions({
      onSuccess: ({ refund: made }) => {
        notify.success("Refund Processed Successfully", `Refunded ${formatUsd(made.amount)} to customer`);
        close();
      },
      onError: (error) => {
        setConfirming(false);
        notify.error("Refund Failed", error.message || "Failed to process refund");
      },
      // Whatever happened, the order's refund state may have moved: read it again everywhere.
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() }),
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = refundSchema.shape.reason.safeParse(reason);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? "Please provide a reason for the refund";
      setReasonError(message);
      reasonToast.current = notify.error("Reason Required", message);
      return;
    }
    if (reasonToast.current !== null) dismissToast(reasonToast.current);
    reasonToast.current = null;
    setReasonError(null);
    setConfirming(true);
  };

  const data = eligibility.data;
  const amount = data ? data.refundable[includeShipping ? "withShipping" : "withoutShipping"] : 0;
  const formId = useId();

  return (
    <>
      <Modal
        open={target !== null}
        onOpenChange={(open) => !open && !refund.isPending && close()}
        title="Process Refund"
        description={target ? `Order ${target.orderNumber} · ${target.customerName}` : undefined}
        footer={
          <>
            <Button variant="outline" onClick={close} disabled={refund.isPending}>
              Cancel
            </Button>
            {data?.eligible ? (
              <Button type="submit" form={formId} variant="destructive" disabled={refund.isPending}>
                Process Refund
              </Button>
            ) : null}
          </>
        }
      >
        {eligibility.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner className="size-8" label="Loading refund information" />
          </div>
        ) : eligibility.isError ? (
          <p
            role="alert"
            className="flex items-center gap-2 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-red-200"
          >
            <CircleAlert aria-hidden className="size-4 shrink-0" />
            Failed to load refund information
          </p>
        ) : (
          <div className="space-y-5">
            <Eligibility data={eligibility.data} />
            {eligibility.data.eligible ? (
              <form id={formId} noValidate onSubmit={submit} className="space-y-5">
                <div className="space-y-2">
                  <label htmlFor={ids.reason} className="text-sm font-medium">
                    Reason for refund
                  </label>
                  <textarea
                    id={ids.reason}
                    value={reason}
                    onChange={(event) => {
                      setReason(event.target.value);
                      if (reasonError) setReasonError(null);
                    }}
                    rows={3}
                    maxLength={500}
                    placeholder="e.g. Arrived damaged"
                    aria-invalid={reasonError ? true : undefined}
                    aria-describedby={reasonError ? ids.reasonError : undefined}
                    className={cn(
                      "block w-full resize-y rounded-md border border-input bg-background/60 px-3 py-2 text-base outline-none md:text-sm",
                      "placeholder:text-muted-foreground hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
                      "aria-invalid:border-destructive aria-invalid:ring-2 aria-invalid:ring-destructive/30",
                    )}
                  />
                  {reasonError ? (
                    <p id={ids.reasonError} className="text-sm text-red-300">
                      {reasonError}
                    </p>
                  ) : null}
                </div>
                <label
                  htmlFor={ids.shipping}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-border px-3 text-sm"
                >
                  <input
                    id={ids.shipping}
                    type="checkbox"
                    checked={includeShipping}
                    onChange={(event) => setIncludeShipping(event.target.checked)}
                    className="size-4 accent-white"
                  />
                  <span>
                    Include shipping <span className="text-muted-foreground">({formatUsd(eligibility.data.order.shipping)})</span>
                  </span>
                </label>
                <div className="flex items-baseline justify-between rounded-md bg-muted px-4 py-3">
                  <span className="text-sm text-muted-foreground">Refund amount</span>
                  <span className="text-2xl font-semibold tabular-nums" data-testid="refund-amount">
                    {formatUsd(amount)}
                  </span>
                </div>
              </form>
            ) : null}
          </div>
        )}
      </Modal>

      <Modal
        open={confirming}
        onOpenChange={(open) => !open && !refund.isPending && setConfirming(false)}
        size="sm"
        role="alertdialog"
        title="Confirm Refund"
        description={`Refund ${formatUsd(amount)} to ${target?.customerName ?? "the customer"}? This cannot be undone.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirming(false)} disabled={refund.isPending}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={refund.isPending || !target}
              onClick={() => target && refund.mutate({ id: target.id, reason: reason.trim(), refundShipping: includeShipping })}
            >
              {refund.isPending ? <Spinner className="size-4" label="Processing refund" /> : null}
              {refund.isPending ? "Processing..." : "Yes, Process Refund"}
            </Button>
          </>
        }
      />
    </>
  );
}

/** The eligibility verdict in words, the order summary and any refunds already made. */
function Eligibility({ data }: { data: RefundEligibility }) {
  const Icon = data.eligible ? CircleCheck : CircleAlert;
  return (
    <>
      <p
        role={data.eligible ? undefined : "alert"}
        className={cn(
          "flex items-start gap-2 rounded-md border p-3 text-sm",
          data.eligible ? "border-green-400/30 bg-green-500/10 text-green-100" : "border-yellow-400/30 bg-yellow-400/10 text-yellow-100",
        )}
      >
        <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
        {data.eligibilityInfo.message}
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted-foreground">Order total</dt>
        <dd className="text-right tabular-nums">{formatUsd(data.order.total)}</dd>
        <dt className="text-muted-foreground">Shipping</dt>
        <dd className="text-right tabular-nums">{formatUsd(data.order.shipping)}</dd>
        <dt className="text-muted-foreground">Placed</dt>
        <dd className="text-right">{formatDate(data.order.createdAt, DATE_TIME)} ET</dd>
        <dt className="text-muted-foreground">Refund status</dt>
        <dd className="text-right">
          <RefundStatusBadge status={data.order.refundStatus} />
        </dd>
        {data.order.refundAmount > 0 ? (
          <>
            <dt className="text-muted-foreground">Already refunded</dt>
            <dd className="text-right tabular-nums">{formatUsd(data.order.refundAmount)}</dd>
          </>
        ) : null}
      </dl>
      {data.existingRefunds.length > 0 ? (
        <ul className="space-y-2 border-t border-border pt-4 text-sm">
          {data.existingRefunds.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                <span className="font-medium tabular-nums">{formatUsd(r.amount)}</span>{" "}
                <span className="text-muted-foreground">on {formatDate(r.createdAt, DATE_TIME)} ET</span>
              </span>
              <RefundStatusBadge status={r.status} />
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
