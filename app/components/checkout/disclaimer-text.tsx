// The Purchase Disclaimer's text, a module of its own: the browser fetches it with the dialog, when
// the shopper reaches for the link; the page's own JavaScript does not carry it (decision 0029).

/** docs/spec.md §2: the four policies and the agreement note, in its order. */
export default function DisclaimerText({ supportEmail }: { supportEmail: string }) {
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
