import { lazy, Suspense } from "react";
import type { CheckoutLoaderData } from "#server/contracts/checkout-page";
import { Spinner } from "#app/components/spinner";
import { HoldCountdown } from "./hold-countdown";
import { LocalCardForm } from "./local-card-form";
import type { ProcessedOrder } from "./processed-order";

// Stripe's code is fetched only by stores that use Stripe, and only at the payment step.
const StripePayment = lazy(() => import("./stripe-payment"));

/**
 * The payment step once the order holds its units: the hold's countdown and the card form (Stripe's
 * Payment Element, or the local test processor's form). A module of its own, loaded on demand by
 * `PaymentSection`.
 */
export default function OrderPayment({
  payment,
  order,
  confirmExtras,
  onPaid,
  onExpire,
}: {
  payment: CheckoutLoaderData["payment"];
  order: ProcessedOrder;
  confirmExtras: Record<string, unknown>;
  onPaid: (orderNumber: string) => void;
  onExpire: () => void;
}) {
  return (
    <div className="space-y-5">
      <HoldCountdown deadline={order.deadline} onExpire={onExpire} />
      {payment.mode === "stripe" ? (
        <Suspense fallback={<Spinner className="size-6" label="Loading the payment form" />}>
          <StripePayment
            publishableKey={payment.publishableKey}
            clientSecret={order.clientSecret}
            paymentIntentId={order.paymentIntentId}
            total={order.orderSummary.total}
            confirmExtras={confirmExtras}
            onPaid={onPaid}
          />
        </Suspense>
      ) : (
        <LocalCardForm clientSecret={order.clientSecret} total={order.orderSummary.total} onPaid={onPaid} />
      )}
    </div>
  );
}
