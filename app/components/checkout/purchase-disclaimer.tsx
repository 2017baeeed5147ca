import { lazy } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { LazyTextDialog } from "#app/components/lazy-text-dialog";
import { buttonVariants } from "#app/components/ui/button";
import { cn } from "#app/lib/utils";
import DisclaimerText from "./disclaimer-text";

// The text reaches the browser only with the dialog: fetched when the shopper reaches for the link.
const loadDisclaimerText = () => import("./disclaimer-text");
const LazyDisclaimerText = lazy(loadDisclaimerText);

const triggerClass =
  "inline-flex min-h-6 items-center rounded-sm font-medium text-foreground underline decoration-foreground/40 underline-offset-4 transition-colors hover:decoration-foreground";

/**
 * The "Purchase Disclaimer" trigger, inline in a sentence. With JavaScript it opens a Radix dialog;
 * without it (and before hydration) it is a link to #purchase-disclaimer, the panel that
 * `PurchaseDisclaimerFallback` puts in the page (apart, since a <p> cannot hold a <section>).
 */
export function PurchaseDisclaimer({ supportEmail }: { supportEmail: string }) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <a href="#purchase-disclaimer" className={triggerClass}>
        Purchase Disclaimer
      </a>
    );
  }
  return (
    <LazyTextDialog
      label="Purchase Disclaimer"
      className={triggerClass}
      title="Purchase Disclaimer"
      description="The store's policy on refunds, quality and limited editions."
      descriptionClassName="sr-only"
      closeLabel="Close disclaimer"
      prefetch={loadDisclaimerText}
    >
      <LazyDisclaimerText supportEmail={supportEmail} />
    </LazyTextDialog>
  );
}

/**
 * The disclaimer without JavaScript: a full-screen panel shown by CSS :target (the same fallback
 * as the sign-up card's terms), closed by a link back to the payment section. Only the server
 * renders its text: hydration keeps the server's HTML (an empty innerHTML is never compared in
 * production) and the panel is gone once hydrated, so the browser's bundle needs no copy of it.
 */
export function PurchaseDisclaimerFallback({ supportEmail, returnTo }: { supportEmail: string; returnTo: string }) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <section id="purchase-disclaimer" className="terms-fallback" aria-labelledby="disclaimer-fallback-title">
      {import.meta.env.SSR ? (
        <div className="terms-panel">
          <h2 id="disclaimer-fallback-title" className="mb-6 font-display text-4xl tracking-wide">
            Purchase Disclaimer
          </h2>
          <DisclaimerText supportEmail={supportEmail} />
          <a href={`#${returnTo}`} className={cn(buttonVariants({ variant: "outline" }), "mt-8 w-full")}>
            Close
          </a>
        </div>
      ) : (
        <div className="terms-panel" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />
      )}
    </section>
  );
}
