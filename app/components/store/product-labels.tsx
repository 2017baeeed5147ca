import { formatUsd } from "#server/contracts/money";
import { cn } from "#app/lib/utils";

interface Priced {
  price: number;
  discountedPrice: number;
  discountPercent: number;
}

/** The price, or with a discount: the discounted price, the struck original and "-N% OFF". */
export function Price({ product, size = "sm", className }: { product: Priced; size?: "sm" | "lg"; className?: string }) {
  const large = size === "lg";
  if (product.discountPercent <= 0) {
    return (
      <p className={cn("tabular-nums", large ? "text-2xl font-medium" : "text-sm text-foreground/85", className)}>
        {formatUsd(product.price)}
      </p>
    );
  }
  return (
    <p className={cn("flex flex-wrap items-baseline gap-x-2 gap-y-1 tabular-nums", className)}>
      <span className="sr-only">Sale price </span>
      <span className={cn(large ? "text-2xl font-medium" : "text-sm font-semibold")}>{formatUsd(product.discountedPrice)}</span>
      <span className="sr-only"> Original price </span>
      <s className={cn("text-muted-foreground decoration-1", large ? "text-lg" : "text-xs")}>{formatUsd(product.price)}</s>
      <span
        data-testid="discount"
        className={cn(
          "font-semibold tracking-[0.12em] text-sale uppercase",
          large ? "rounded-sm border border-sale/50 px-2 py-0.5 text-xs" : "text-[11px]",
        )}
      >
        -{product.discountPercent}% OFF
      </span>
    </p>
  );
}

/** SOLD OUT / COMING SOON, laid over a product image. */
export function StatusBadge({ kind, className }: { kind: "sold-out" | "coming-soon"; className?: string }) {
  return (
    <span
      data-testid={kind}
      className={cn(
        "inline-flex h-7 items-center rounded-sm px-2.5 text-[11px] font-bold tracking-[0.2em] whitespace-nowrap",
        kind === "sold-out"
          ? "bg-background/85 text-foreground ring-1 ring-foreground/40 backdrop-blur-sm"
          : "bg-foreground text-background",
        className,
      )}
    >
      {kind === "sold-out" ? "SOLD OUT" : "COMING SOON"}
    </span>
  );
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * "July 1, 2026" for a release date stored as a calendar date ("2026-07-01..."); anything else is
 * shown as written. Pure string work, so server and browser render the same text.
 */
export function formatReleaseDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return value;
  return `${month} ${Number(match[3])}, ${match[1]}`;
}
