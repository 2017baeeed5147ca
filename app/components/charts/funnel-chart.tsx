import type { Funnel } from "#server/contracts/reports";
import { cn } from "#app/lib/utils";

const STEPS: { key: keyof Funnel; label: string }[] = [
  { key: "visitors", label: "Visitors" },
  { key: "bagged", label: "Added to bag" },
  { key: "checkout", label: "Reached checkout" },
  { key: "ordered", label: "Placed order" },
  { key: "paid", label: "Paid" },
];

const counts = new Intl.NumberFormat("en-US");
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : "—");

/**
 * The funnel as a table whose last column draws each step's bar (HTML, so it reads, prints and
 * shrinks to a phone without JavaScript): the count, the share of the step before, the bar
 * against the first step. `previous`, when given, adds the previous period's count.
 */
export function FunnelChart({
  title = "Funnel",
  description,
  funnel,
  previous,
  className,
}: {
  title?: string;
  description?: string;
  funnel: Funnel;
  previous?: Funnel;
  className?: string;
}) {
  const top = Math.max(1, ...STEPS.map((step) => funnel[step.key]));
  return (
    <section className={cn("chart rounded-lg border border-border bg-card p-4 sm:p-5", className)} aria-label={title}>
      <h3 className="text-sm font-semibold tracking-wide">{title}</h3>
      {description ? <p className="mt-0.5 text-xs text-muted-foreground">{description}</p> : null}
      <table className="mt-3 w-full text-left text-sm tabular-nums">
        <caption className="sr-only">{title}</caption>
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Step
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Count
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Of the step before
            </th>
            {previous ? (
              <th scope="col" className="hidden py-1 pr-3 text-right font-medium sm:table-cell">
                Previous period
              </th>
            ) : null}
            <th scope="col" className="hidden w-2/5 py-1 font-medium sm:table-cell">
              <span className="sr-only">Bar</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {STEPS.map((step, i) => {
            const value = funnel[step.key];
            const before = i === 0 ? null : funnel[STEPS[i - 1]!.key];
            return (
              <tr key={step.key} className="border-t border-border" data-step={step.key}>
                <th scope="row" className="py-2 pr-3 font-normal">
                  {step.label}
                </th>
                <td className="py-2 pr-3 text-right font-medium">{counts.format(value)}</td>
                <td className="py-2 pr-3 text-right text-muted-foreground">{before === null ? "—" : percent(value, before)}</td>
                {previous ? (
                  <td className="hidden py-2 pr-3 text-right text-muted-foreground sm:table-cell">{counts.format(previous[step.key])}</td>
                ) : null}
                <td className="hidden py-2 sm:table-cell" aria-hidden>
                  <span
                    className="chart-funnel-bar block h-3 rounded-sm"
                    style={{ width: `${Math.max(value > 0 ? 1 : 0, (value / top) * 100)}%` }}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
