import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
// The /pure entry loads Stripe.js only when loadStripe is called: pages that never reach the
// payment step make no request to Stripe.
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { Lock } from "lucide-react";
import { useState } from "react";
import { formatUsd } from "#server/contracts/money";
import { Button } from "#app/components/ui/button";
import { PaymentAlert, type PaymentFailure } from "./payment-alert";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { ORDER_BUTTON_CLASS } from "#server/contracts/checkout-form";

const loaded = new Map<string, Promise<Stripe | null>>();
/** One Stripe.js instance per key for the life of the page (Stripe's own advice). */
function stripeFor(publishableKey: string) {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

export interface StripePaymentProps {
  publishableKey: string;
  clientSecret: string;
  paymentIntentId: string;
  total: number;
  /** The rest of what POST /api/confirm-order takes (docs/spec.md §7); the server reads the order itself. */
  confirmExtras: Record<string, unknown>;
  onPaid: (orderNumber: string) => void;
}

/** Stripe's Payment Element in the dark ("night") appearance, matched to the store's tokens. */
export default function StripePayment(props: StripePaymentProps) {
  return (
    <Elements
      stripe={stripeFor(props.publishableKey)}
      options={{
        clientSecret: props.clientSecret,
        appearance: {
          theme: "night",
          variables: {
            colorPrimary: "#fafafa",
            colorBackground: "#1a1a1a",
            borderRadius: "6px",
            fontFamily: "Inter, system-ui, sans-serif",
          },
        },
      }}
    >
      <StripeForm {...props} />
    </Elements>
  );
}

function StripeForm({ paymentIntentId, total, confirmExtras, onPaid }: StripePaymentProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<PaymentFailure>(null);

  // Inline only, announced by the alert box: a toast as well lay over Complete Order (issue 28).
  const fail = (title: string, message: string) => setFailure({ title, message });

  async function pay(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return fail(CHECKOUT_UI.notReadyTitle, CHECKOUT_UI.notReady);
    setPaying(true);
    setFailure(null);
    try {
      // docs/spec.md §7: confirm in the page, leaving it only when the card needs a redirect (3-D Secure);
      // Stripe then returns the buyer to /checkout-success, which confirms the order itself.
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/checkout-success` },
        redirect: "if_required",
      });
      if (error) return fail(CHECKOUT_UI.paymentFailedTitle, error.message ?? CHECKOUT_UI.paymentFailedFallback);
      if (paymentIntent?.status !== "succeeded") return fail(CHECKOUT_UI.pendingTitle, CHECKOUT_UI.pending);
      const response = await fetch("/api/confirm-order", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ paymentIntentId, ...confirmExtras }),
      });
      const outcome = (await response.json().catch(() => ({}))) as { status?: string; message?: string; orderNumber?: string };
      // Stripe took the money; only an explicit refusal (an amount mismatch) is a failure here.
      // Anything else (a hiccup of our server) is settled by the webhook.
      if (response.status === 402) return fail(CHECKOUT_UI.paymentFailedTitle, outcome.message ?? CHECKOUT_UI.paymentFailedFallback);
      onPaid(outcome.orderNumber ?? paymentIntentId.slice(-8).toUpperCase());
    } catch (error) {
      fail(CHECKOUT_UI.paymentErrorTitle, error instanceof Error && error.message ? error.message : CHECKOUT_UI.unexpected);
    } finally {
      setPaying(false);
    }
  }

  return (
    <form onSubmit={pay} className="space-y-5" aria-label="Card payment" data-testid="payment-form">
      <PaymentElement />
      {failure ? <PaymentAlert failure={failure} /> : null}
      <Button type="submit" size={null} className={ORDER_BUTTON_CLASS} disabled={paying}>
        <Lock aria-hidden="true" />
        {paying ? "Processing..." : `Complete Order - ${formatUsd(total)}`}
      </Button>
    </form>
  );
}
