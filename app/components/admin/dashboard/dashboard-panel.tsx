import { useQuery } from "@tanstack/react-query";
import type { DashboardView } from "#server/contracts/reports";
import { formatStoreTime } from "#server/contracts/store-time";
import { FunnelChart } from "#app/components/charts/funnel-chart";
import { TimeChart } from "#app/components/charts/time-chart";
import { useTRPC } from "#app/lib/trpc";
import { Kpis } from "./kpis";
import { RangeForm } from "./range-form";
import { TopProducts } from "./top-products";

const REFRESH_MS = 60_000;

function labelsOf(view: DashboardView, ts: string[]) {
  const hourly = view.range.bucket === "hour";
  return {
    labels: ts.map((t) => formatStoreTime(t, hourly ? "HH:mm" : "MMM d")),
    longLabels: ts.map((t) => formatStoreTime(t, hourly ? "EEE, MMM d, HH:mm" : "EEE, MMM d, yyyy")),
  };
}

function rangeText(from: string, to: string) {
  const day = (ymd: string) => formatStoreTime(`${ymd}T12:00:00.000Z`, "MMM d, yyyy");
  return from === to ? day(from) : `${day(from)} – ${day(to)}`;
}

/** Past a worker's ceiling a minute the store stops counting (a flood of bots); the admin is told how many it left out. */
const droppedNote = (n: number) =>
  n > 0 ? ` ${n.toLocaleString("en-US")} ${n === 1 ? "event was" : "events were"} not counted (over the limit a minute).` : "";

/**
 * The dashboard (issue 14 part 1): rendered by the loader, refreshed every minute through tRPC
 * while the page is open with JavaScript.
 */
export function DashboardPanel({ initial, loadedAt }: { initial: DashboardView; loadedAt: number }) {
  const trpc = useTRPC();
  const input = { range: initial.range.preset, from: initial.range.from, to: initial.range.to, includeTest: initial.includeTest };
  const { data } = useQuery({
    ...trpc.admin.reports.dashboard.queryOptions(input),
    initialData: initial,
    initialDataUpdatedAt: loadedAt,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });
  const view = data ?? initial;
  const { labels, longLabels } = labelsOf(
    view,
    view.summary.series.map((p) => p.t),
  );
  const hourly = view.range.bucket === "hour";
  const per = hourly ? "per hour" : "per day";
  const current = { name: "This period" };
  const previous = { name: "Previous period" };
  const subscriberLabels = labelsOf(
    view,
    view.subscribers.map((p) => p.t),
  );

  return (
    <div className="space-y-6">
      <RangeForm key={`${view.range.preset}-${view.range.from}-${view.range.to}-${view.includeTest}`} view={view} />
      {view.error ? (
        <p role="alert" className="rounded-md border border-destructive/60 bg-destructive/10 px-4 py-3 text-sm" data-testid="range-error">
          {view.error} Showing the last 7 days instead.
        </p>
      ) : null}
      <p className="text-sm text-muted-foreground" data-testid="range-shown">
        {rangeText(view.range.from, view.range.to)}, against {rangeText(view.previous.from, view.previous.to)}. New York time
        {view.includeTest ? "; test orders included" : "; test orders left out"}.
      </p>
      <Kpis view={view} />
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeChart
          title="Orders"
          description={`Paid orders placed, ${per}`}
          labels={labels}
          longLabels={longLabels}
          bucketName={hourly ? "Hour" : "Day"}
          current={{ ...current, values: view.summary.series.map((p) => p.orders) }}
          previous={{ ...previous, values: view.previousSummary.series.map((p) => p.orders) }}
        />
        <TimeChart
          title="Revenue"
          description={`Their totals before refunds, ${per}`}
          labels={labels}
          longLabels={longLabels}
          bucketName={hourly ? "Hour" : "Day"}
          format="usd"
          current={{ ...current, values: view.summary.series.map((p) => p.revenue) }}
          previous={{ ...previous, values: view.previousSummary.series.map((p) => p.revenue) }}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <FunnelChart
          funnel={view.summary.funnel}
          previous={view.previousSummary.funnel}
          description={`Sessions once a day, visits without cookies by their first page. Visitor figures as of ${formatStoreTime(view.eventsAsOf, "MMM d, HH:mm")}.${droppedNote(view.eventsDropped)}`}
        />
        <TopProducts products={view.topProducts} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeChart
          title="Sign-ups and unsubscribes"
          description={`Subscribers joining (bars) and leaving (dashed), ${per}`}
          labels={subscriberLabels.labels}
          longLabels={subscriberLabels.longLabels}
          bucketName={hourly ? "Hour" : "Day"}
          current={{ name: "Signed up", values: view.subscribers.map((p) => p.joined) }}
          previous={{ name: "Unsubscribed", values: view.subscribers.map((p) => p.left) }}
        />
        <TimeChart
          title="Subscribers"
          description={`On the list at the end of each ${hourly ? "hour" : "day"}`}
          kind="line"
          legend="last"
          labels={subscriberLabels.labels}
          longLabels={subscriberLabels.longLabels}
          bucketName={hourly ? "Hour" : "Day"}
          current={{ name: "Subscribed", values: view.subscribers.map((p) => p.total) }}
        />
      </div>
    </div>
  );
}
