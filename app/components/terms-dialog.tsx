import { LazyTextDialog } from "./lazy-text-dialog";
import { useHydrated } from "remix-utils/use-hydrated";
import { buttonVariants } from "./ui/button";
import { cn } from "#app/lib/utils";

type TermsProps = { brand: string; supportEmail: string };

/** The seven sections of the spec, in its order. */
function TermsSections({ brand, supportEmail }: TermsProps) {
  const sections: { title: string; body: React.ReactNode }[] = [
    {
      title: "1. Introduction",
      body: `Welcome to ${brand}. These Terms & Conditions govern your place on our early access list and your use of this website. By signing up you agree to them.`,
    },
    {
      title: "2. Early Access Program",
      body: `Signing up puts your e-mail address on the ${brand} early access list. Members hear about each drop before the public and may receive exclusive offers. Early access does not guarantee a purchase: every drop is a limited edition, sold while it lasts and not restocked.`,
    },
    {
      title: "3. Privacy Policy",
      body: `We keep only your e-mail address and the date you signed up, and we use them only to tell you about ${brand}. We never sell your address or share it with anyone for their own marketing. Ask us and we delete it.`,
    },
    {
      title: "4. Communications",
      body: "Expect e-mails about launches, drops and member offers, never daily noise. Every e-mail carries a link to unsubscribe, and you can leave the list at any time.",
    },
    {
      title: "5. Limitation of Liability",
      body: `This website and the early access program are provided as they are. As far as the law allows, ${brand} is not liable for indirect or consequential losses from using them, including a drop that sells out before you reach it.`,
    },
    {
      title: "6. Changes to Terms",
      body: "We may update these terms. The date above shows the latest version; staying on the list after a change means you accept it.",
    },
    {
      title: "7. Contact Information",
      body: (
        <>
          Questions about these terms? Write to{" "}
          <a href={`mailto:${supportEmail}`} className="underline underline-offset-4 hover:text-foreground">
            {supportEmail}
          </a>
          .
        </>
      ),
    },
  ];
  return (
    <div className="space-y-5 text-sm leading-relaxed text-muted-foreground">
      {sections.map((section) => (
        <section key={section.title}>
          <h3 className="mb-1.5 text-xs font-semibold tracking-[0.18em] text-foreground uppercase">{section.title}</h3>
          <p>{section.body}</p>
        </section>
      ))}
    </div>
  );
}

/** Today as the visitor's own calendar has it ("Last updated" is always today, docs/spec.md §2). */
function localToday(): string {
  return new Date().toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

const triggerClass =
  "inline-flex min-h-6 items-center rounded-sm font-medium text-foreground underline decoration-foreground/40 underline-offset-4 transition-colors hover:decoration-foreground";

/**
 * "Terms & Conditions". With JavaScript: a Radix dialog (focus trap, Escape, Close button).
 * Without it (and before hydration): the trigger is a link to #terms, and the same text is in the
 * page as a full-screen panel shown by CSS :target, closed by a link back to the card.
 * `serverToday` dates that static copy; the dialog uses the visitor's own today.
 */
export function TermsDialog({ brand, supportEmail, serverToday, returnTo }: TermsProps & { serverToday: string; returnTo: string }) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <>
        <a href="#terms" className={triggerClass}>
          Terms &amp; Conditions
        </a>
        <section id="terms" className="terms-fallback" aria-labelledby="terms-fallback-title">
          <div className="terms-panel">
            <h2 id="terms-fallback-title" className="font-display text-4xl tracking-wide">
              Terms &amp; Conditions
            </h2>
            <p className="mt-1 mb-6 text-xs text-muted-foreground">Last updated: {serverToday}</p>
            <TermsSections brand={brand} supportEmail={supportEmail} />
            <a href={`#${returnTo}`} className={cn(buttonVariants({ variant: "outline" }), "mt-8 w-full")}>
              Close
            </a>
          </div>
        </section>
      </>
    );
  }

  return (
    <LazyTextDialog
      label="Terms & Conditions"
      className={triggerClass}
      title="Terms & Conditions"
      description={`Last updated: ${localToday()}`}
      closeLabel="Close terms"
    >
      <TermsSections brand={brand} supportEmail={supportEmail} />
    </LazyTextDialog>
  );
}
