/** The words every page shows while payments run on the built-in test processor. */
export const TEST_MODE_NOTICE = "Test mode: no card is charged.";
/** The words every page shows while Stripe runs with test keys (issue 27). */
export const STRIPE_TEST_MODE_NOTICE = "Stripe test mode: no card is charged.";

/**
 * A slim strip above the header while the store takes test cards only, so nobody mistakes this
 * store for one that charges (or a forgotten Stripe key for a working shop). Server-rendered, so
 * it shows without JavaScript.
 */
export function TestModeBanner({ processor }: { processor: "local" | "stripe" }) {
  return (
    <div
      role="status"
      data-testid="test-mode-banner"
      className="border-b border-amber-300/40 bg-amber-300 px-4 py-1 text-center text-xs leading-5 font-semibold tracking-wide text-black"
    >
      {processor === "stripe" ? STRIPE_TEST_MODE_NOTICE : TEST_MODE_NOTICE}
    </div>
  );
}
