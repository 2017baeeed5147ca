import { stringify } from "csv-stringify/sync";
import { DROP_CSV_HEADER, type DropReport, type DropVariantLine } from "#server/contracts/drops";
import { formatDollarAmount } from "#server/contracts/money";
import { neutraliseCell } from "#server/services/mail/admin-subscribers";

/**
 * The drop report as CSV (decision 0026): one long table, `section,label,units,revenue,value`, so a
 * spreadsheet can filter by section. Revenue in dollars with two decimals; a sell-out time in
 * seconds after T-0. A BOM and CRLF as the subscriber export, for Excel. Names an admin typed are
 * neutralised against formula injection. Under each product, a `variant` row per size and colour
 * sold (issue 23): "Drop Tee · Size M · Black", its units and revenue, and as value the units of
 * that variant left now; a product without sizes or colours has none, so its rows are as before.
 */
type Cell = string | number | null;

const row = (section: string, label: string, units: Cell, revenue: Cell, value: Cell) =>
  [section, neutraliseCell(label), units ?? "", revenue ?? "", value ?? ""].map(String);

/** "Drop Tee · Size M · Black", leaving out what the line has not. */
export const variantLabel = (name: string, v: DropVariantLine) =>
  [name, v.size === null ? null : `Size ${v.size}`, v.color].filter((part) => part !== null).join(" · ");

export function dropReportRows(report: DropReport): string[][] {
  const rows: string[][] = [
    row("drop", "T-0", null, null, report.countdownAt),
    row("drop", "Window", null, null, `${report.from}/${report.to}`),
    row("drop", "Test orders", null, null, report.includeTest ? "included" : "left out"),
    row("totals", "Paid orders", report.totals.units, formatDollarAmount(report.totals.revenue), report.totals.orders),
  ];
  for (const p of report.products) {
    rows.push(row("product", p.name, p.units, formatDollarAmount(p.revenue), p.sellOutSeconds ?? "not sold out"));
    for (const v of p.variants) rows.push(row("variant", variantLabel(p.name, v), v.units, formatDollarAmount(v.revenue), v.left));
  }
  rows.push(row("minute", "Before T-0", report.beforeT0.units, formatDollarAmount(report.beforeT0.revenue), null));
  for (const m of report.minutes) rows.push(row("minute", `T+${m.minute}`, m.units, formatDollarAmount(m.revenue), null));
  if (report.funnel) {
    const f = report.funnel;
    for (const [label, value] of [
      ["Visitors", f.visitors],
      ["Added to bag", f.bagged],
      ["Reached checkout", f.checkout],
      ["Placed order", f.ordered],
      ["Paid", f.paid],
    ] as const) {
      rows.push(row("funnel", label, null, null, value));
    }
  }
  const w = report.waitingRoom;
  for (const [label, value] of [
    ["Joined", w.joined],
    ["Peak length", w.peakLength],
    ["Admitted", w.admitted],
    ["Wait p50 (s)", w.waitP50Seconds],
    ["Wait p95 (s)", w.waitP95Seconds],
    ["Left the line", w.leftLine],
  ] as const) {
    rows.push(row("waiting room", label, null, null, value));
  }
  rows.push(row("early access", "Links sent", null, null, report.earlyAccess.sent));
  rows.push(row("early access", "Links used", null, null, report.earlyAccess.used));
  rows.push(row("early access", "Converted", null, null, report.earlyAccess.converted));
  rows.push(row("sold-out misses", "Attempts", null, null, report.soldOutMisses.attempts));
  rows.push(row("sold-out misses", "Shoppers", null, null, report.soldOutMisses.shoppers));
  for (const p of report.soldOutMisses.products) rows.push(row("sold-out misses", p.name, null, null, p.attempts));
  rows.push(row("refunds", "Since T-0", null, formatDollarAmount(report.refunds.amount), report.refunds.count));
  return rows;
}

export function dropReportCsv(report: DropReport): string {
  return stringify([[...DROP_CSV_HEADER], ...dropReportRows(report)], { bom: true, record_delimiter: "windows" });
}

/** The download's name: the drop's T-0 day (UTC). */
export const dropCsvFilename = (report: DropReport) => `drop-${report.id}-${report.countdownAt.slice(0, 10)}.csv`;
