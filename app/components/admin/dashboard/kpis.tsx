import type { DashboardView } from "#server/contracts/reports";
import { formatUsd } from "#server/contracts/money";

const counts = new Intl.NumberFormat("en-US");

/** "+12% on the previous period", "no change", "new" (nothing before). */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "No change" : "New this period";
  const pct = Math.round(((now - before) / before) * 100);
  return pct === 0 ? "No change" : `${pct > 0 ? "+" : "−"}${Math.abs(pct)}% on the previous period`;
}

/** The range's headline figures, each against the previous period. */
export function Kpis({ view }: { view: DashboardView }) {
  const { summary: now, previousSummary: before } = view;
  const cards = [
    { label: "Orders", value: counts.format(now.orders), note: change(now.orders, before.orders), testId: "kpi-orders" },
    { label: "Revenue", value: formatUsd(now.revenue), note: change(now.revenue, before.revenue), testId: "kpi-revenue" },
    {
      label: "Average order",
      value: formatUsd(now.averageOrder),
      note: change(now.averageOrder, before.averageOrder),
      testId: "kpi-average",
    },
    {
      label: "Refunds",
      value: formatUsd(now.refunds),
      note: `${counts.format(view.refundCount)} refund${view.refundCount === 1 ? "" : "s"} · ${change(now.refunds, before.refunds)}`,
      testId: "kpi-refunds",
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map((card) => (
        <div key={card.label} className="chart rounded-lg border border-border bg-card p-4" data-testid={card.testId}>
          <dt className="text-xs font-medium tracking-wider text-muted-foreground uppercase">{card.label}</dt>
          <dd className="mt-1 font-display text-3xl tracking-wide tabular-nums sm:text-4xl">{card.value}</dd>
          <dd className="mt-1 text-xs text-muted-foreground">{card.note}</dd>
        </div>
      ))}
    </dl>
  );
}
