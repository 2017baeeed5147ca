import { CircleAlert } from "lucide-react";
import { formatUsd } from "#server/contracts/money";
import { PriceLine } from "#app/components/price-line";
import { ProductImage, type ImageSource } from "#app/components/store/product-image";
import { cn } from "#app/lib/utils";
import { taxAmountText, taxTitle, type TaxView } from "#server/contracts/checkout-form";

export interface SummaryLine {
  id: string | number;
  name: string;
  /** "Size M · Black"; empty for a product without sizes and colours. */
  choice?: string;
  image: ImageSource;
  unitPrice: number;
  /** The price before the discount, when there is one. */
  originalPrice: number | null;
  quantity: number;
  total: number;
  /** Why the line cannot be bought as it is (sold out meanwhile, say). */
  notice: string | null;
}

export interface SummaryTotals {
  subtotal: number;
  shipping: number;
  tax: TaxView;
  total: number;
}

/**
 * docs/spec.md §2, left column: the lines, then Subtotal, Shipping (only above 0), the tax line with its
 * label and rate (only when the rate is above 0) and the Total.
 */
export function OrderSummary({ lines, totals, className }: { lines: SummaryLine[]; totals: SummaryTotals; className?: string }) {
  return (
    <section
      aria-labelledby="summary-title"
      data-testid="order-summary"
      className={cn("rounded-lg border border-border bg-card", className)}
    >
      <h2 id="summary-title" className="border-b border-border px-5 py-4 font-display text-3xl tracking-wide sm:px-6">
        Order Summary
      </h2>
      <ul className="divide-y divide-border px-5 sm:px-6" aria-label="Items">
        {lines.map((line) => (
          <SummaryRow key={line.id} line={line} />
        ))}
      </ul>
      <dl className="space-y-3 border-t border-border px-5 py-5 text-sm sm:px-6">
        <Row label="Subtotal" value={formatUsd(totals.subtotal)} testId="summary-subtotal" />
        {totals.shipping > 0 ? <Row label="Shipping" value={formatUsd(totals.shipping)} testId="summary-shipping" /> : null}
        {totals.tax.taxRate > 0 ? (
          <Row label={taxTitle(totals.tax)} value={taxAmountText(totals.tax.taxAmount)} testId="summary-tax" />
        ) : null}
        <div className="flex items-baseline justify-between gap-4 border-t border-border pt-4">
          <dt className="text-xs font-semibold tracking-[0.2em] uppercase">Total</dt>
          <dd className="text-2xl font-medium tabular-nums" data-testid="summary-total">
            <span className="mr-1.5 align-middle text-[11px] font-semibold tracking-[0.16em] text-muted-foreground">USD</span>
            {formatUsd(totals.total)}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function SummaryRow({ line }: { line: SummaryLine }) {
  return (
    <li className="flex gap-4 py-4" data-testid="summary-line">
      <div className="relative shrink-0">
        <div className="h-20 w-16 overflow-hidden rounded-md border border-border bg-background">
          <ProductImage image={line.image} alt="" sizes="64px" />
        </div>
        <span
          aria-hidden="true"
          className="absolute -top-2 -right-2 flex h-5 min-w-5 items-center justify-center rounded-full bg-muted px-1 text-[11px] font-semibold tabular-nums ring-2 ring-card"
        >
          {line.quantity}
        </span>
      </div>
      <div className="flex min-w-0 flex-1 flex-col justify-center gap-1">
        <div className="flex items-start justify-between gap-3">
          <div>
            <p className="text-[13px] leading-snug font-semibold tracking-[0.12em] uppercase">{line.name}</p>
            {line.choice ? <p className="text-xs text-muted-foreground">{line.choice}</p> : null}
          </div>
          <p className="shrink-0 text-sm tabular-nums" data-testid="summary-line-total">
            {formatUsd(line.total)}
          </p>
        </div>
        <PriceLine unitPrice={line.unitPrice}>
          {line.originalPrice !== null ? (
            <s className="opacity-70">
              <span className="sr-only">Was </span>
              {formatUsd(line.originalPrice)}
            </s>
          ) : null}
          <span aria-hidden="true">·</span>
          <span>Qty {line.quantity}</span>
        </PriceLine>
        {line.notice ? (
          <p className="flex items-start gap-1.5 text-xs text-red-400">
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            {line.notice}
          </p>
        ) : null}
      </div>
    </li>
  );
}
