import { useHydrated } from "remix-utils/use-hydrated";
import { sizeGuideView } from "#server/contracts/size-guide";
import { LazyTextDialog } from "#app/components/lazy-text-dialog";
import { buttonVariants } from "#app/components/ui/button";
import { cn } from "#app/lib/utils";

const triggerClass =
  "inline-flex min-h-11 items-center text-xs font-semibold tracking-[0.2em] text-foreground uppercase underline decoration-foreground/40 underline-offset-4 hover:decoration-foreground";

/** The guide as text with its line breaks, or as a table (React writes every cell as text, never markup). */
function SizeGuideBody({ text }: { text: string }) {
  const view = sizeGuideView(text);
  if (view.kind === "text") return <p className="text-sm leading-relaxed whitespace-pre-line text-foreground/90">{view.text}</p>;
  return (
    <div className="space-y-3">
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm" data-testid="size-guide-table">
          <thead>
            <tr>
              {view.head.map((cell, i) => (
                <th key={i} scope="col" className="border-b border-border px-2 py-2 text-left font-semibold">
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row, r) => (
              <tr key={r} className="border-b border-border/60">
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-2 py-2 text-left font-semibold">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-2 py-2 text-foreground/90">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {view.notes.map((note, i) => (
        <p key={i} className="text-xs text-muted-foreground">
          {note}
        </p>
      ))}
    </div>
  );
}

/**
 * "Size guide" beside the size picker, for a product whose admin wrote one. With JavaScript: the
 * store's lazy text dialog (focus trap, Escape, focus back to the button). Without it (and before
 * hydration): a link to #size-guide, the same guide in a panel shown by CSS :target (as the terms).
 */
export function SizeGuide({ text, productName }: { text: string; productName: string }) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <>
        <a href="#size-guide" id="size-guide-link" className={triggerClass}>
          Size guide
        </a>
        <section id="size-guide" className="terms-fallback" aria-labelledby="size-guide-title">
          <div className="terms-panel">
            <h2 id="size-guide-title" className="font-display text-4xl tracking-wide">
              Size guide
            </h2>
            <p className="mt-1 mb-6 text-xs text-muted-foreground">{productName}</p>
            <SizeGuideBody text={text} />
            <a href="#size-guide-link" className={cn(buttonVariants({ variant: "outline" }), "mt-8 w-full")}>
              Close
            </a>
          </div>
        </section>
      </>
    );
  }
  return (
    <LazyTextDialog label="Size guide" className={triggerClass} title="Size guide" description={productName} closeLabel="Close size guide">
      <SizeGuideBody text={text} />
    </LazyTextDialog>
  );
}
