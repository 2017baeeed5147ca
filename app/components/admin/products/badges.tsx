import { cn } from "#app/lib/utils";

const TONES = {
  visible: "border-emerald-400/30 bg-emerald-400/10 text-emerald-300",
  hidden: "border-foreground/20 bg-foreground/5 text-muted-foreground",
  soon: "border-sky-400/30 bg-sky-400/10 text-sky-300",
  soldOut: "border-red-400/30 bg-red-400/10 text-red-300",
  primary: "border-amber-300/40 bg-amber-300/15 text-amber-200",
} as const;

export function Badge({ tone, children, className }: { tone: keyof typeof TONES; children: React.ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex h-6 items-center gap-1 rounded-full border px-2.5 text-[11px] font-semibold tracking-[0.06em] whitespace-nowrap uppercase",
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

/** Status column: Visible/Hidden, plus Coming soon and Sold out when they apply. */
export function ProductStatus({ product }: { product: { isVisible: boolean; isComingSoon: boolean; inventory: number } }) {
  return (
    <div className="flex flex-wrap gap-1.5" data-testid="product-status">
      <Badge tone={product.isVisible ? "visible" : "hidden"}>{product.isVisible ? "Visible" : "Hidden"}</Badge>
      {product.isComingSoon ? <Badge tone="soon">Coming soon</Badge> : null}
      {product.inventory === 0 ? <Badge tone="soldOut">Sold out</Badge> : null}
    </div>
  );
}
