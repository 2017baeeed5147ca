import { useHydrated } from "remix-utils/use-hydrated";
import { LazyTextDialog } from "~/components/lazy-text-dialog";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** Spec §2: the four policies and the agreement note, in its order. */
function DisclaimerText({ supportEmail }: { supportEmail: string }) {
  const parts = [
    {
      title: "No Refunds Policy",
      body: "All sales are final. We do not offer refunds, exchanges or returns on any purchase.",
    },
    {
      title: "Quality Guarantee",
      body: "Every piece is made from premium materials and passes strict quality control before it ships.",
    },
    {
      title: "Limited Edition",
      body: "Each drop is made once. When an item sells out, it is not restocked.",
    },
    {
      title: "Contact Support",
      body: (
        <>
          Questions about sizing, materials or an order? Ask us before purchasing at{" "}
          <a href={`mailto:${supportEmail}`} className="underline underline-offset-4 hover:text-foreground">
            {supportEmail}
          </a>{" "}
          or on the{" "}
          <a href="/support" className="underline underline-offset-4 hover:text-foreground">
            support page
          </a>
          .
        </>
      ),
    },
  ];
  return (
    <div className="space-y-5 text-sm leading-relaxed text-muted-foreground">
      {parts.map((part) => (
        <section key={part.title}>
          <h3 className="mb-1.5 text-xs font-semibold tracking-[0.18em] text-foreground uppercase">{part.title}</h3>
          <p>{part.body}</p>
        </section>
      ))}
      <p className="rounded-md border border-border bg-background/60 p-3 text-foreground">
        By completing your purchase, you confirm that you have read and accept this policy.
      </p>
    </div>
  );
}

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
    >
      <DisclaimerText supportEmail={supportEmail} />
    </LazyTextDialog>
  );
}

/**
 * The disclaimer without JavaScript: a full-screen panel shown by CSS :target (the same fallback
 * as the sign-up card's terms), closed by a link back to the payment section.
 */
export function PurchaseDisclaimerFallback({ supportEmail, returnTo }: { supportEmail: string; returnTo: string }) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <section id="purchase-disclaimer" className="terms-fallback" aria-labelledby="disclaimer-fallback-title">
      <div className="terms-panel">
        <h2 id="disclaimer-fallback-title" className="mb-6 font-display text-4xl tracking-wide">
          Purchase Disclaimer
        </h2>
        <DisclaimerText supportEmail={supportEmail} />
        <a href={`#${returnTo}`} className={cn(buttonVariants({ variant: "outline" }), "mt-8 w-full")}>
          Close
        </a>
      </div>
    </section>
  );
}
