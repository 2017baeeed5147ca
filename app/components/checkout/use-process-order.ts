import { isRouteErrorResponse, useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ENHANCED_FIELD } from "#server/contracts/cart-view";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout-messages";
import { EMPTY_VALUES, NO_TAX } from "#server/contracts/checkout-form";
import type { CheckoutActionData } from "#server/contracts/checkout-page";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";

/**
 * Process Order with JavaScript: the checkout form's `process`, posted by a fetcher to the page's
 * own action, the one a browser without JavaScript posts the form to. A press claims the post
 * before anything is awaited and the claim ends with the answer, so a double click, or a press
 * while the first is on its way, holds the bag once.
 */
export function useProcessOrder(onAnswer: (answer: CheckoutActionData) => void) {
  const fetcher = useFetcher<CheckoutActionData>();
  const claimed = useRef(false);
  const answered = useRef<CheckoutActionData | undefined>(undefined);
  const latest = useRef(onAnswer);
  latest.current = onAnswer;
  const busy = fetcher.state !== "idle";

  // The answer is in as soon as the action's is, before the bag a refusal reloads.
  useEffect(() => {
    if (!fetcher.data || fetcher.data === answered.current) return;
    answered.current = fetcher.data;
    latest.current(fetcher.data);
  }, [fetcher.data]);
  // Only once the post is over, data or not: the next press may send.
  useEffect(() => {
    if (!busy) claimed.current = false;
  }, [busy]);

  return {
    busy,
    /** False while a press is already being sent. */
    claim: () => !claimed.current && (claimed.current = true),
    /** The press stopped before sending (details missing). */
    release: () => void (claimed.current = false),
    send: (fields: Record<string, string>) =>
      fetcher.submit({ ...fields, intent: "process", [ENHANCED_FIELD]: "1" }, { method: "post", action: "/checkout" }),
  };
}

/**
 * The checkout's clientAction answer for a post that got none of the action's data back (the
 * network gone, the waiting room's bare 429): the refusal's own message, as the notice the form
 * shows, rather than the route's error page.
 */
export function refusedProcessOrder(error: unknown): CheckoutActionData {
  const message: unknown = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | null)?.message : null;
  const description = typeof message === "string" && message ? message : CHECKOUT_MESSAGES.processFailed;
  return {
    values: EMPTY_VALUES,
    rates: null,
    shippingMethod: "",
    tax: NO_TAX,
    errors: {},
    notice: { kind: "error", title: CHECKOUT_UI.errorTitle, description },
    order: null,
  };
}
