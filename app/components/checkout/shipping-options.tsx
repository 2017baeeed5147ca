import { Truck } from "lucide-react";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout-messages";
import { formatUsd } from "#server/contracts/money";
import { ErrorBox } from "#app/components/error-box";
import { Spinner } from "#app/components/spinner";
import { Button } from "#app/components/ui/button";
import { cn } from "#app/lib/utils";
import { SectionTitle } from "./customer-fields";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { estimatedDaysText, type RateView } from "#server/contracts/checkout-form";

/**
 * Shipping Options as a radio list. With JavaScript the rates arrive by themselves once the
 * address is complete; without it a "Calculate shipping" button asks the page's action (intent
 * `rates`), which re-renders the form with the options and keeps what was typed.
 */
export function ShippingOptions({
  rates,
  selected,
  onSelect,
  loading,
  hydrated,
  error,
}: {
  rates: RateView[] | null;
  selected: string;
  onSelect: (key: string) => void;
  loading: boolean;
  hydrated: boolean;
  error: string | undefined;
}) {
  return (
    <section aria-labelledby="shipping-title" className="space-y-5">
      <SectionTitle id="shipping-title" step={3}>
        Shipping Options
      </SectionTitle>
      <div aria-live="polite" className="text-sm">
        {loading ? (
          <p className="flex items-center gap-3 text-muted-foreground" data-testid="rates-loading">
            <Spinner className="size-4" label="" />
            {CHECKOUT_UI.calculating}
          </p>
        ) : rates === null ? (
          <p className="flex items-center gap-3 text-muted-foreground">
            <Truck className="size-4 shrink-0" aria-hidden="true" />
            {hydrated ? "Enter your shipping address to see the options." : "Enter your shipping address, then calculate the options."}
          </p>
        ) : rates.length === 0 ? (
          <ErrorBox title={CHECKOUT_MESSAGES.noRatesTitle} message={CHECKOUT_MESSAGES.noRates} iconClassName="text-red-400" />
        ) : null}
      </div>

      {rates && rates.length > 0 ? (
        <fieldset
          className={cn("space-y-2.5 transition-opacity", loading && "opacity-50")}
          disabled={loading}
          aria-describedby={error ? "shipping-error" : undefined}
        >
          <legend className="sr-only">Shipping method</legend>
          {rates.map((rate) => (
            <label
              key={rate.key}
              data-testid="shipping-rate"
              className={cn(
                "flex min-h-16 cursor-pointer items-center gap-4 rounded-md border border-border px-4 py-3 transition-colors",
                "hover:border-foreground/40 has-[:checked]:border-foreground has-[:checked]:bg-foreground/[0.04] has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/40",
              )}
            >
              <input
                type="radio"
                name="shippingMethod"
                value={rate.key}
                checked={selected === rate.key}
                onChange={() => onSelect(rate.key)}
                className="size-4 shrink-0 accent-[var(--color-foreground)] outline-none"
              />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-medium">{rate.description}</span>
                <span className="block text-xs text-muted-foreground">{estimatedDaysText(rate.estimatedDays)}</span>
              </span>
              <span className="shrink-0 text-sm font-medium tabular-nums">{formatUsd(rate.cost)}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {error ? (
        <p id="shipping-error" className="text-[13px] text-red-400">
          Choose a shipping method.
        </p>
      ) : null}

      {hydrated ? null : (
        <Button type="submit" name="intent" value="rates" variant="outline" formNoValidate className="w-full sm:w-auto">
          {rates && rates.length > 0 ? "Update shipping options" : "Calculate shipping"}
        </Button>
      )}
    </section>
  );
}
