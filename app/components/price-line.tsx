import type { ReactNode } from "react";
import { formatUsd } from "#server/contracts/money";

/**
 * The small print under a bag line's name, in the bag and in the order summary: the unit price,
 * named for screen readers because the line's total sits beside it, then what the caller adds
 * (the price before the discount, the quantity).
 */
export function PriceLine({ unitPrice, children }: { unitPrice: number; children?: ReactNode }) {
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted-foreground tabular-nums">
      <span>
        <span className="sr-only">Unit price </span>
        {formatUsd(unitPrice)}
      </span>
      {children}
    </p>
  );
}
