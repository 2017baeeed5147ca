import { useCallback, useEffect, useRef, useState } from "react";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout-messages";
import { notify } from "#app/components/toasts";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { keepOrDefault, NO_TAX, type Address, type RateView, type TaxView } from "#server/contracts/checkout-form";

/** docs/spec.md §9: rates are asked for 1 s after the last change of a complete address. */
export const RATES_DEBOUNCE_MS = 1000;

const postJson = (url: string, body: string, signal: AbortSignal) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body, signal });

/**
 * Shipping rates and the tax estimate for the address on screen. `bagKey` changes when the bag
 * does (the parcel's weight decides the rates). `initial` is what the server already quoted for
 * the same address (the no-JavaScript `rates` step), so hydration does not ask again.
 */
export function useCheckoutQuote({
  address,
  bagKey,
  subtotal,
  initial,
}: {
  address: Address | null;
  bagKey: string;
  subtotal: number;
  initial: { rates: RateView[] | null; shippingMethod: string; tax: TaxView } | undefined;
}) {
  const ratesBody = address ? JSON.stringify({ address, packageWeight: 1 }) : "";
  const ratesKey = ratesBody && `${ratesBody}|${bagKey}`;
  const [rates, setRates] = useState<RateView[] | null>(initial?.rates ?? null);
  const [selected, setSelected] = useState(initial?.shippingMethod ?? "");
  const [loading, setLoading] = useState(false);
  const [nonce, setNonce] = useState(0);
  const quoted = useRef(initial?.rates ? ratesKey : "");

  useEffect(() => {
    if (!ratesBody) {
      quoted.current = "";
      setRates(null);
      setLoading(false);
      return;
    }
    if (ratesKey === quoted.current) return;
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      setLoading(true);
      try {
        const response = await postJson("/api/shipping/calculate", ratesBody, controller.signal);
        if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
        const next = (await response.json()) as RateView[];
        quoted.current = ratesKey;
        setRates(next);
        setSelected((was) => keepOrDefault(next, was));
        if (next.length === 0) notify.error(CHECKOUT_MESSAGES.noRatesTitle, CHECKOUT_MESSAGES.noRates);
      } catch {
        if (controller.signal.aborted) return;
        // docs/spec.md §8: the rates are cleared; the next change of the address asks again.
        quoted.current = ratesKey;
        setRates(null);
        setSelected("");
        notify.error(CHECKOUT_UI.shippingFailedTitle, CHECKOUT_UI.shippingFailed);
      }
      if (!controller.signal.aborted) setLoading(false);
    }, RATES_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [ratesBody, ratesKey, nonce]);

  /** Asks again now for the same address (Process Order found the rates had changed). */
  const refresh = useCallback(() => {
    quoted.current = "";
    setNonce((n) => n + 1);
  }, []);

  const selectedRate = rates?.find((rate) => rate.key === selected) ?? null;

  // The tax for this bag with the chosen rate's shipping (some states tax it), as Process Order
  // will charge it: asked once a rate is chosen, not before. docs/spec.md §8: a failure means no tax.
  const taxBody =
    address && selectedRate
      ? JSON.stringify({ state: address.state, country: address.country, subtotal, shippingCost: selectedRate.cost })
      : "";
  const taxKey = taxBody && `${taxBody}|${bagKey}`;
  const [tax, setTax] = useState<TaxView>(initial?.tax ?? NO_TAX);
  const taxed = useRef(initial?.rates ? taxKey : "");
  useEffect(() => {
    if (!taxBody) {
      taxed.current = "";
      setTax(NO_TAX);
      return;
    }
    if (taxKey === taxed.current) return;
    const controller = new AbortController();
    postJson("/api/calculate-tax", taxBody, controller.signal)
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        taxed.current = taxKey;
        setTax((await response.json()) as TaxView);
      })
      .catch(() => {
        if (!controller.signal.aborted) setTax(NO_TAX);
      });
    return () => controller.abort();
  }, [taxBody, taxKey]);

  return { rates, selected, setSelected, selectedRate, loading, tax, refresh };
}
