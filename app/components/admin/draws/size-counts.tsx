import type { AdminDrawSizeCount } from "#server/contracts/draws";

/** A size as the admin reads it: a product without sizes gives its units under "". */
export const sizeLabel = (size: string) => (size === "" ? "One size" : size);

/**
 * Entries per size (issue 26): units to give, confirmed entries (those that take part) and all
 * entries, with the totals; once drawn, how many won, took their link and paid.
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
  const cell = "px-2 py-1 text-right tabular-nums";
  const row = (label: string, s: Omit<AdminDrawSizeCount, "size">, strong = false) => (
    <>
      <th scope="row" className={`px-2 py-1 text-left ${strong ? "font-semibold" : "font-normal"}`}>
        {label}
      </th>
      <td className={cell}>{s.units}</td>
      <td className={cell}>{s.confirmed}</td>
      <td className={cell}>{s.entries}</td>
      {results ? (
        <>
          <td className={cell}>{s.winners}</td>
          <td className={cell}>{s.claimed}</td>
          <td className={cell}>{s.paid}</td>
        </>
      ) : null}
    </>
  );
  return (
    <div className={`overflow-x-auto ${className}`}>
      <table className="w-full text-sm" data-testid="draw-size-counts" aria-label="Entries per size">
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-2 py-1 text-left font-normal">
              Size
            </th>
            <th scope="col" className="px-2 py-1 text-right font-normal">
              Units
            </th>
            <th scope="col" className="px-2 py-1 text-right font-normal">
              Confirmed
            </th>
            <th scope="col" className="px-2 py-1 text-right font-normal">
              Entered
            </th>
            {results ? (
              <>
                <th scope="col" className="px-2 py-1 text-right font-normal">
                  Won
                </th>
                <th scope="col" className="px-2 py-1 text-right font-normal">
                  Claimed
                </th>
                <th scope="col" className="px-2 py-1 text-right font-normal">
                  Paid
                </th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {draw.perSize.map((s) => (
            <tr key={s.size} data-testid="draw-size-row">
              {row(sizeLabel(s.size), s)}
            </tr>
          ))}
          {draw.perSize.length > 1 ? <tr data-testid="draw-size-total">{row("Total", total, true)}</tr> : null}
        </tbody>
      </table>
    </div>
  );
}
