import { formatUsd } from "#server/contracts/money";
import type { Country } from "#server/contracts/checkout-page";
import { estimatedDaysText, type CheckoutValues, type RateView } from "#server/contracts/checkout-form";

/**
 * Once the order holds its units, the details it was made with, read-only and compact, so the
 * payment form sits right under them. "Change" lets the buyer go back (a new Process Order then
 * releases the old hold).
 */
export function DetailsReview({
  values,
  countries,
  rate,
  onChange,
}: {
  values: CheckoutValues;
  countries: Country[];
  rate: RateView | null;
  onChange: (() => void) | null;
}) {
  const country = countries.find((c) => c.code === values.country)?.name ?? values.country;
  const cityLine = [values.city, [values.state, values.zipCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return (
    <section aria-labelledby="review-title" className="rounded-md border border-border" data-testid="details-review">
      <div className="flex items-center justify-between gap-4 border-b border-border py-2 pr-2 pl-4">
        <h2 id="review-title" className="text-xs font-semibold tracking-[0.18em] text-muted-foreground uppercase">
          Your details
        </h2>
        {onChange ? (
          <button
            type="button"
            onClick={onChange}
            className="min-h-11 rounded-md px-3 text-xs font-semibold tracking-[0.16em] uppercase underline-offset-4 hover:underline"
          >
            Change
          </button>
        ) : null}
      </div>
      <dl className="divide-y divide-border text-sm">
        <Row label="Contact">
          {values.email}
          {values.phone ? <span className="text-muted-foreground"> · {values.phone}</span> : null}
        </Row>
        <Row label="Ship to">
          <span className="block">{values.name}</span>
          <span className="block text-muted-foreground">
            {values.street}, {cityLine}, {country}
          </span>
        </Row>
        {rate ? (
          <Row label="Method">
            <span className="block">
              {rate.description} · {formatUsd(rate.cost)}
            </span>
            <span className="block text-muted-foreground">{estimatedDaysText(rate.estimatedDays)}</span>
          </Row>
        ) : null}
      </dl>
    </section>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-3 px-4 py-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
