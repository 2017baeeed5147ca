import { ErrorBox } from "#app/components/error-box";

export type PaymentFailure = { title: string; message: string } | null;

/** A failed payment stays on screen (after its toast is gone) until the next attempt. */
export function PaymentAlert({ failure }: { failure: NonNullable<PaymentFailure> }) {
  return <ErrorBox title={failure.title} message={failure.message} testId="payment-error" iconClassName="text-red-400" />;
}
