import { CircleCheck, Lock, ShieldCheck } from "lucide-react";
import { lazy, Suspense, useEffect } from "react";
import { formatUsd } from "#server/contracts/money";
import type { CheckoutLoaderData } from "#server/contracts/checkout-page";
import { Spinner } from "#app/components/spinner";
import { Button } from "#app/components/ui/button";
import { SectionTitle } from "./customer-fields";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import type { ProcessedOrder } from "./processed-order";
import { OrderPageLink } from "./paid-order-link";
import { PurchaseDisclaimer, PurchaseDisclaimerFallback } from "./purchase-disclaimer";
import { ORDER_BUTTON_CLASS } from "#server/contracts/checkout-form";

// The step after Process Order (the hold's countdown and the card form) is fetched when the shopper
// starts on the form (`loadOrderPayment`, from the checkout page), not with the page (decision 0029).
export const loadOrderPayment = () => import("./order-payment");
const OrderPayment = lazy(loadOrderPayment);

export const FORM_ID = "checkout-form";

/**
 * Payment: the Purchase Disclaimer, then either "Process Order - $total" (it submits the checkout
 * form, which sits above, through the form attribute) or, once the order holds its units, the
 * hold countdown and the card form with "Complete Order - $total".
 */
export function PaymentSection({
  payment,
  order,
  paidNumber,
  orderUrl,
  total,
  processing,
  supportEmail,
  confirmExtras,
  onPaid,
  onExpire,
}: {
  payment: CheckoutLoaderData["payment"];
  order: ProcessedOrder | null;
  paidNumber: string | null;
  /** The order page once the server has given it to this browser (issue 25). */
  orderUrl: string | null;
  total: number;
  processing: boolean;
  supportEmail: string;
  confirmExtras: Record<string, unknown>;
  onPaid: (orderNumber: string) => void;
  onExpire: () => void;
}) {
  return (
    <section id="payment" aria-labelledby="payment-title" className="scroll-mt-24 space-y-5">
      <SectionTitle id="payment-title" step={4} focusable>
        Payment
      </SectionTitle>
      {paidNumber !== null ? (
        <PaidNotice orderNumber={paidNumber} orderUrl={orderUrl} />
      ) : (
        <>
          <p className="text-sm leading-relaxed text-muted-foreground">
            All sales are final. Please read our <PurchaseDisclaimer supportEmail={supportEmail} /> before you buy.
          </p>
          <PurchaseDisclaimerFallback supportEmail={supportEmail} returnTo="payment" />
          {order ? (
            <Suspense fallback={<Spinner className="size-6" label="Loading the payment form" />}>
              <OrderPayment payment={payment} order={order} confirmExtras={confirmExtras} onPaid={onPaid} onExpire={onExpire} />
              <ShowPaymentStep />
            </Suspense>
          ) : (
            <Button
              type="submit"
              form={FORM_ID}
              name="intent"
              value="process"
              size={null}
              className={ORDER_BUTTON_CLASS}
              disabled={processing}
              data-testid="process-order"
            >
              <Lock aria-hidden="true" />
              {processing ? "Processing..." : `Process Order - ${formatUsd(total)}`}
            </Button>
          )}
          {payment.mode === "stripe" || !order ? (
            <p className="flex items-center justify-center gap-2 text-xs text-muted-foreground">
              <ShieldCheck className="size-4" aria-hidden="true" />
              {payment.mode === "stripe" ? "Payments are processed securely by Stripe." : "Test mode: no real card is charged."}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function PaidNotice({ orderNumber, orderUrl }: { orderNumber: string; orderUrl: string | null }) {
  return (
    <div role="status" className="rounded-lg border border-success/30 bg-success/[0.06] p-6" data-testid="payment-success">
      <CircleCheck className="size-8 text-success" aria-hidden="true" />
      <p className="mt-3 font-display text-4xl tracking-wide">{CHECKOUT_UI.successTitle}</p>
      <p className="mt-1 text-sm text-muted-foreground">{CHECKOUT_UI.success}</p>
      {orderNumber ? (
        <p className="mt-4 text-sm">
          Order{" "}
          <span className="font-mono font-semibold tracking-wider" data-testid="paid-order-number">
            #{orderNumber}
          </span>
        </p>
      ) : null}
      {orderUrl ? (
        <OrderPageLink to={orderUrl} className="mt-3 text-sm font-semibold underline underline-offset-4" testId="paid-view-order" />
      ) : null}
      <p className="mt-4 flex items-center gap-2 text-xs text-muted-foreground">
        <Spinner className="size-3.5" label="" />
        Taking you back to the store...
      </p>
    </div>
  );
}

/**
 * Once the card form is in (it and the details' summary come as chunks of their own, so the page
 * is its final height only then), the step is brought into view. At once, not smoothly: the page
 * has just changed under the shopper anyway (the details folded), and a page still gliding as
 * they reach for the card field or Complete Order moves it from under their tap. The Process
 * Order button gave way to the step: the focus it had goes to the step's heading, not to the
 * page's body, where a screen reader loses its place.
 */
function ShowPaymentStep() {
  useEffect(() => {
    if (document.activeElement === document.body) document.getElementById("payment-title")?.focus({ preventScroll: true });
    document.getElementById("payment")?.scrollIntoView({ block: "start", behavior: "instant" });
  }, []);
  return null;
}
