import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { DropReport } from "#server/contracts/drops";
import { FunnelChart } from "#app/components/charts/funnel-chart";
import { TimeChart } from "#app/components/charts/time-chart";
import { Button } from "#app/components/ui/button";
import { counts, formatDropTime, formatSeconds, formatUsd } from "./format";

const STATE_WORD: Record<DropReport["state"], string> = { upcoming: "Upcoming", live: "Live", past: "Finished" };

function Figure({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-lg border border-border bg-card p-4">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
      {note ? <dd className="mt-0.5 text-xs text-muted-foreground">{note}</dd> : null}
    </div>
  );
}

function Block({ id, title, children, description }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div>
        <h3 id={id} className="text-lg font-semibold">
          {title}
        </h3>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

const cell = "px-2 py-2 sm:px-3";

/** The drop report (decision 0026): reads without JavaScript, prints black on white without the admin's navigation. */
export function DropReportView({ report }: { report: DropReport }) {
  const labels = report.minutes.map((m) => `T+${m.minute}`);
  const longLabels = report.minutes.map((m) => `T+${m.minute} to T+${m.minute + 1} min`);
  const query = report.includeTest ? "?includeTest=1" : "";
  const w = report.waitingRoom;
  return (
    <div className="report-page space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm text-muted-foreground">
            <Link to="/admin/drops" className="no-print underline underline-offset-4">
              All drops
            </Link>
            <span className="no-print"> · </span>
            {STATE_WORD[report.state]}
          </p>
          <h2 className="font-display text-3xl tracking-wide">Drop of {formatDropTime(report.countdownAt)}</h2>
          <p className="text-sm text-muted-foreground">
            Orders placed {formatDropTime(report.from)} to {formatDropTime(report.to)}; paid orders only,{" "}
            {report.includeTest ? "test orders included" : "test orders left out"}. Revenue is merchandise after discounts, before tax and
            shipping.
          </p>
        </div>
        <div className="no-print flex flex-wrap items-center gap-3">
          <Form method="get" className="flex items-center gap-2">
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input type="checkbox" name="includeTest" value="1" defaultChecked={report.includeTest} className="size-4" />
              Include test orders
            </label>
            <Button type="submit" variant="outline">
              Apply
            </Button>
          </Form>
          <Button asChild>
            <a href={`/api/admin/drops/${report.id}.csv${query}`} download>
              Download CSV
            </a>
          </Button>
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Paid orders" value={counts.format(report.totals.orders)} />
        <Figure label="Units sold" value={counts.format(report.totals.units)} />
        <Figure label="Revenue" value={formatUsd(report.totals.revenue)} />
        <Figure
          label="Refunds since T-0"
          value={formatUsd(report.refunds.amount)}
          note={`${counts.format(report.refunds.count)} refund${report.refunds.count === 1 ? "" : "s"}`}
        />
      </dl>

      <Block id="sell-out" title="Sell-out time" description="From T-0 to the last unit sold, for each product that sold out.">
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full min-w-[21rem] text-left text-sm tabular-nums">
            <thead className="bg-muted text-xs text-muted-foreground">
              <tr>
                <th className={cell}>Product</th>
                <th className={`${cell} text-right`}>Units</th>
                <th className={`${cell} text-right`}>Revenue</th>
                <th className={`${cell} text-right`}>Left</th>
                <th className={cell}>Sold out</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {report.products.length === 0 ? (
                <tr>
                  <td className={cell} colSpan={5}>
                    Nothing sold in this drop yet.
                  </td>
                </tr>
              ) : (
                report.products.flatMap((p) => [
                  <tr key={`${p.productId}-${p.name}`}>
                    <td className={cell}>{p.name}</td>
                    <td className={`${cell} text-right`}>{counts.format(p.units)}</td>
                    <td className={`${cell} text-right`}>{formatUsd(p.revenue)}</td>
                    <td className={`${cell} text-right`}>{counts.format(p.left)}</td>
                    <td className={cell}>
                      {p.productId === null
                        ? "Product deleted"
                        : p.sellOutSeconds === null
                          ? "Not sold out"
                          : `After ${formatSeconds(p.sellOutSeconds)}`}
                    </td>
                  </tr>,
                  ...p.variants.map((v) => (
                    <tr key={`${p.productId}-${p.name}-${v.size ?? ""}-${v.color ?? ""}`} className="text-muted-foreground">
                      <td className={`${cell} pl-6`}>{[v.size === null ? null : `Size ${v.size}`, v.color].filter(Boolean).join(" · ")}</td>
                      <td className={`${cell} text-right`}>{counts.format(v.units)}</td>
                      <td className={`${cell} text-right`}>{formatUsd(v.revenue)}</td>
                      <td className={`${cell} text-right`}>{counts.format(v.left)}</td>
                      <td className={cell} />
                    </tr>
                  )),
                ])
              )}
            </tbody>
          </table>
        </div>
      </Block>

      <Block
        id="first-hour"
        title="The first hour"
        description={`Minute by minute from T-0. Before T-0 (early access): ${counts.format(report.beforeT0.units)} units, ${formatUsd(report.beforeT0.revenue)}.`}
      >
        <div className="grid gap-4 lg:grid-cols-2">
          <TimeChart
            title="Units per minute"
            labels={labels}
            longLabels={longLabels}
            current={{ name: "Units", values: report.minutes.map((m) => m.units) }}
            bucketName="Minute"
          />
          <TimeChart
            title="Revenue per minute"
            labels={labels}
            longLabels={longLabels}
            current={{ name: "Revenue", values: report.minutes.map((m) => m.revenue) }}
            format="usd"
            bucketName="Minute"
          />
        </div>
      </Block>

      <div className="grid gap-8 lg:grid-cols-2">
        <Block id="funnel" title="Funnel" description="T-0 to T+1 h: visitors, bag, checkout, orders placed and paid.">
          {report.funnel ? (
            <FunnelChart title="The first hour" funnel={report.funnel} />
          ) : (
            <p className="text-sm text-muted-foreground">
              {report.state === "upcoming" ? "The drop has not started." : "No events recorded."}
            </p>
          )}
        </Block>

        <Block id="waiting-room" title="Waiting room" description="Waits count from T-0 or the shopper's arrival, whichever is later.">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Figure label="Joined" value={counts.format(w.joined)} />
            <Figure
              label="Peak length"
              value={counts.format(w.peakLength)}
              note={w.peakAt ? `at ${formatDropTime(w.peakAt)}` : undefined}
            />
            <Figure label="Admitted" value={counts.format(w.admitted)} />
            <Figure label="Wait p50" value={formatSeconds(w.waitP50Seconds)} />
            <Figure label="Wait p95" value={formatSeconds(w.waitP95Seconds)} />
            <Figure label="Left the line" value={counts.format(w.leftLine)} note="never came back for their turn" />
          </dl>
        </Block>

        <Block
          id="early-access"
          title="Early access"
          description="Links made for this drop; converted: a paid order from the link's e-mail after it was opened."
        >
          <dl className="grid grid-cols-3 gap-3">
            <Figure label="Sent" value={counts.format(report.earlyAccess.sent)} />
            <Figure label="Used" value={counts.format(report.earlyAccess.used)} />
            <Figure label="Converted" value={counts.format(report.earlyAccess.converted)} />
          </dl>
        </Block>

        <Block id="misses" title="Sold-out misses" description="Shoppers who placed an order after a product in their bag had sold out.">
          <dl className="grid grid-cols-2 gap-3">
            <Figure label="Attempts" value={counts.format(report.soldOutMisses.attempts)} />
            <Figure label="Shoppers" value={counts.format(report.soldOutMisses.shoppers)} />
          </dl>
          {report.soldOutMisses.products.length > 0 ? (
            <ul className="text-sm">
              {report.soldOutMisses.products.map((p) => (
                <li key={p.name}>
                  {p.name}: {counts.format(p.attempts)} attempt{p.attempts === 1 ? "" : "s"}
                </li>
              ))}
            </ul>
          ) : null}
        </Block>
      </div>
    </div>
  );
}
