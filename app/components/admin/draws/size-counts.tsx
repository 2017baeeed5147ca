import type { AdminDrawSizeCount } from "#server/contracts/draws";

/** A size as the admin reads it: a product without sizes gives its units under "". */
export const sizeLabel = (size: string) => (size === "" ? "One size" : size);

type Counts = Omit<AdminDrawSizeCount, "size">;

const ENTRY_COLUMNS = [
  ["units", "Units"],
  ["confirmed", "Confirmed"],
  ["entered", "Entered"],
] as const;
const RESULT_COLUMNS = [
  ["winners", "Won"],
  ["claimed", "Claimed"],
  ["paid", "Paid"],
] as const;

const valueOf = (s: Counts, key: (typeof ENTRY_COLUMNS)[number][0] | (typeof RESULT_COLUMNS)[number][0]) =>
  key === "entered" ? s.entries : s[key];

/**
 * Entries per size (issue 26): units to give, confirmed entries (those that take part) and all
 * entries, with the totals; once drawn, how many won, took their link and paid.
 *
 * With the results the table has seven columns, wider than a phone (390 px) even at its tightest:
 * below `sm` each size's row is laid out as a card instead, entries on the left and results on the
 * right, each number beside its column's name (the orders table does the same below `md`). The
 * column headers stay for screen readers (visually hidden), and the explicit roles keep the table
 * a table where a browser drops its semantics once its display is changed (WebKit does).
 * The four columns of the Draws list fit a phone as they are.
 */
export function SizeCounts({
  draw,
  results = false,
  className = "",
}: {
  draw: { id: number; perSize: AdminDrawSizeCount[] };
  results?: boolean;
  className?: string;
}) {
  const total = draw.perSize.reduce(
    (sum, s) => ({
      units: sum.units + s.units,
      confirmed: sum.confirmed + s.confirmed,
      entries: sum.entries + s.entries,
      winners: sum.winners + s.winners,
      claimed: sum.claimed + s.claimed,
      paid: sum.paid + s.paid,
    }),
    { units: 0, confirmed: 0, entries: 0, winners: 0, claimed: 0, paid: 0 },
  );
  const columns = results ? [...ENTRY_COLUMNS, ...RESULT_COLUMNS] : ENTRY_COLUMNS;
  // Below sm, with the results: cards of two columns filled top to bottom (entries, then results).
  const card = results;
  const cell = `px-2 py-1 text-right tabular-nums ${card ? "max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-0.5" : ""}`;
  const row = (label: string, s: Counts, strong = false) => (
    <>
      <th
        scope="row"
        role="rowheader"
        className={`px-2 py-1 text-left ${strong ? "font-semibold" : "font-normal"} ${card ? `max-sm:col-span-2 max-sm:px-0 max-sm:pb-1 ${strong ? "" : "max-sm:font-medium"}` : ""}`}
      >
        {label}
      </th>
      {columns.map(([key, name]) => (
        <td key={key} role="cell" className={cell}>
          {card ? (
            // Read out as the column's header already: shown to the eye only.
            <span aria-hidden="true" className="text-xs text-muted-foreground sm:hidden">
              {name}
            </span>
          ) : null}
          {valueOf(s, key)}
        </td>
      ))}
    </>
  );
  const rowClass = card ? "max-sm:grid max-sm:grid-flow-col max-sm:grid-cols-2 max-sm:grid-rows-4 max-sm:gap-x-6 max-sm:py-2" : "";
  return (
    <div className={`overflow-x-auto ${className}`}>
      <table
        role="table"
        className={`w-full text-sm ${card ? "max-sm:block" : ""}`}
        data-testid="draw-size-counts"
        aria-label="Entries per size"
      >
        <thead role="rowgroup" className={`text-xs text-muted-foreground ${card ? "max-sm:sr-only" : ""}`}>
          <tr role="row">
            <th scope="col" role="columnheader" className="px-2 py-1 text-left font-normal">
              Size
            </th>
            {columns.map(([key, name]) => (
              <th key={key} scope="col" role="columnheader" className="px-2 py-1 text-right font-normal">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className={`divide-y divide-border ${card ? "max-sm:block" : ""}`}>
          {draw.perSize.map((s) => (
            <tr key={s.size} role="row" data-testid="draw-size-row" className={rowClass}>
              {row(sizeLabel(s.size), s)}
            </tr>
          ))}
          {draw.perSize.length > 1 ? (
            <tr role="row" data-testid="draw-size-total" className={rowClass}>
              {row("Total", total, true)}
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
