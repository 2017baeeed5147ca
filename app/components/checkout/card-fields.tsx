import { CreditCard, FlaskConical } from "lucide-react";
import { Input } from "#app/components/ui/input";
import { CheckoutField } from "./customer-fields";
import { formatCardNumber, formatExpiry, TEST_CARDS, type CardFields as CardValues } from "#server/contracts/checkout-card";

type CardErrors = Partial<Record<keyof CardValues, string>>;

/**
 * The local test processor's card fields: number, expiry, CVC. Controlled when `values` and
 * `onChange` are given (the checkout with JavaScript), plain inputs otherwise (the pay page).
 */
export function CardFields({
  values,
  onChange,
  errors,
}: {
  values?: CardValues;
  onChange?: (name: keyof CardValues, value: string) => void;
  errors: CardErrors;
}) {
  const asList = Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, message ? [message] : undefined]));
  const bind = (name: keyof CardValues, format: (text: string) => string) =>
    values && onChange
      ? { value: values[name], onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(name, format(e.target.value)) }
      : {};
  return (
    <div className="grid grid-cols-2 gap-4">
      <CheckoutField name="cardNumber" label="Card number" errors={asList} className="col-span-2">
        {(props) => (
          <div className="relative">
            <Input
              {...props}
              {...bind("cardNumber", formatCardNumber)}
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              maxLength={23}
              className="pr-11 tabular-nums"
            />
            <CreditCard
              className="pointer-events-none absolute top-1/2 right-3.5 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
          </div>
        )}
      </CheckoutField>
      <CheckoutField name="expiry" label="Expiry" errors={asList}>
        {(props) => (
          <Input
            {...props}
            {...bind("expiry", formatExpiry)}
            name="expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            maxLength={7}
            className="tabular-nums"
          />
        )}
      </CheckoutField>
      <CheckoutField name="cvc" label="CVC" errors={asList}>
        {(props) => (
          <Input
            {...props}
            {...bind("cvc", (text) => text.replace(/\D/g, "").slice(0, 4))}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            className="tabular-nums"
          />
        )}
      </CheckoutField>
    </div>
  );
}

/** "Test mode", clearly: no real card is charged; the two test cards, each can fill the form. */
export function TestModeNotice({ onPick }: { onPick?: (number: string) => void }) {
  return (
    <div className="rounded-md border border-amber-400/30 bg-amber-400/[0.06] p-4 text-sm" data-testid="test-mode">
      <p className="flex items-center gap-2 font-semibold text-amber-200">
        <FlaskConical className="size-4" aria-hidden="true" />
        <span className="text-xs tracking-[0.18em] uppercase">Test mode</span>
      </p>
      <p className="mt-1.5 text-muted-foreground">
        No real card is charged. Use any future expiry date and any 3-digit CVC with a test card:
      </p>
      <ul className="mt-3 space-y-1.5">
        {TEST_CARDS.map((card) => (
          <li key={card.number} className="flex items-center justify-between gap-3">
            {onPick ? (
              <button
                type="button"
                onClick={() => onPick(card.number)}
                className="min-h-8 rounded-sm font-mono text-[13px] text-foreground underline decoration-foreground/30 underline-offset-4 hover:decoration-foreground"
                aria-label={`Use test card ${card.number}`}
              >
                {card.number}
              </button>
            ) : (
              <span className="font-mono text-[13px] text-foreground">{card.number}</span>
            )}
            <span className="text-xs text-muted-foreground">{card.outcome}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
