import { Lock } from "lucide-react";
import { useRef, useState } from "react";
import { formatUsd } from "#server/contracts/money";
import { Button } from "#app/components/ui/button";
import { cardErrors, digitsOf, formatCardNumber, type CardFields as CardValues } from "#server/contracts/checkout-card";
import { CardFields, TestModeNotice } from "./card-fields";
import { PaymentAlert, type PaymentFailure } from "./payment-alert";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { ORDER_BUTTON_CLASS } from "#server/contracts/checkout-form";

/** What POST /api/local-payments/confirm answers: the confirmation's outcome, or an error body. */
interface ConfirmAnswer {
  status?: string;
  message?: string;
  orderNumber?: string;
}

/**
 * The card form of the local test processor, standing in for Stripe's Payment Element: it posts
 * the card number to POST /api/local-payments/confirm, which pays the intent and confirms the
 * order. A decline keeps the hold, so the buyer can try another card.
 */
export function LocalCardForm({
  clientSecret,
  total,
  onPaid,
}: {
  clientSecret: string;
  total: number;
  onPaid: (orderNumber: string) => void;
}) {
  const [card, setCard] = useState<CardValues>({ cardNumber: "", expiry: "", cvc: "" });
  const [errors, setErrors] = useState<Partial<Record<keyof CardValues, string>>>({});
  const [failure, setFailure] = useState<PaymentFailure>(null);
  const [paying, setPaying] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Inline only, announced by the alert box: a toast as well lay over Complete Order (issue 28).
  const fail = (title: string, message: string) => setFailure({ title, message });

  async function pay(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = cardErrors(card);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      formRef.current?.querySelector<HTMLInputElement>("[aria-invalid=true]")?.focus();
      return;
    }
    setPaying(true);
    setFailure(null);
    try {
      const response = await fetch("/api/local-payments/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ clientSecret, cardNumber: digitsOf(card.cardNumber) }),
      });
      const answer = (await response.json().catch(() => ({}))) as ConfirmAnswer;
      if (response.ok && answer.status === "paid") return onPaid(answer.orderNumber ?? "");
      if (response.ok && answer.status === "pending") return fail(CHECKOUT_UI.pendingTitle, CHECKOUT_UI.pending);
      fail(CHECKOUT_UI.paymentFailedTitle, answer.message || CHECKOUT_UI.paymentFailedFallback);
    } catch (error) {
      fail(CHECKOUT_UI.paymentErrorTitle, error instanceof Error && error.message ? error.message : CHECKOUT_UI.unexpected);
    } finally {
      setPaying(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={pay} noValidate className="space-y-5" aria-label="Card payment" data-testid="payment-form">
      <TestModeNotice onPick={(number) => setCard({ cardNumber: formatCardNumber(number), expiry: "12 / 34", cvc: "123" })} />
      <CardFields values={card} errors={errors} onChange={(name, value) => setCard((was) => ({ ...was, [name]: value }))} />
      {failure ? <PaymentAlert failure={failure} /> : null}
      <Button type="submit" size={null} className={ORDER_BUTTON_CLASS} disabled={paying}>
        <Lock aria-hidden="true" />
        {paying ? "Processing..." : `Complete Order - ${formatUsd(total)}`}
      </Button>
    </form>
  );
}
