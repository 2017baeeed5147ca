import { useId, useState, type KeyboardEvent, type PointerEvent } from "react";
import { cn } from "#app/lib/utils";
import { formatTick, formatValue, type ChartFormat } from "./format";
import { axisLabels, niceTicks } from "./scale";

export interface ChartSeries {
  /** "This period", "Previous period". */
  name: string;
  values: number[];
}

export interface TimeChartProps {
  title: string;
  /** One line under the title (what is counted, the time zone). */
  description?: string;
  /** One label per bucket, formatted by the caller on the store's clock ("Nov 25", "14:00"). */
  labels: string[];
  /** The longer form of each label for the table and the hover ("Wed, Nov 25, 14:00"). */
  longLabels?: string[];
  current: ChartSeries;
  /** Drawn as a dashed line over the current period, bucket for bucket. */
  previous?: ChartSeries;
  kind?: "bar" | "line";
  format?: ChartFormat;
  /** The table's first column heading. */
  bucketName?: string;
  /** What the legend shows: the sum over the range (counts, money) or the last value (a level, such as a list's size). */
  legend?: "sum" | "last";
  className?: string;
}

// The plot's own coordinates; the SVG is stretched to its box (preserveAspectRatio="none"), so
// strokes keep their width with non-scaling-stroke and every text is HTML beside it.
const W = 1000;
const H = 300;

/**
 * A chart over time, rendered on the server as SVG: bars (or a line) for the current period, a
 * dashed line for the previous one, round ticks on the value axis, a subset of the bucket labels
 * below. It reads without JavaScript (every bucket carries a native tooltip, and the figures are
 * in a table under "Show the figures"), prints in black on white (app.css), and follows the admin's
 * dark theme. With JavaScript, hovering or the arrow keys show one bucket's figures.
 */
export function TimeChart({
  title,
  description,
  labels,
  longLabels = labels,
  current,
  previous,
  kind = "bar",
  format = "count",
  bucketName = "Period",
  legend = "sum",
  className,
}: TimeChartProps) {
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const n = labels.length;
  const max = Math.max(0, ...current.values, ...(previous?.values ?? []));
  const ticks = niceTicks(max, 4, format === "count");
  const top = ticks[ticks.length - 1]!;
  const y = (value: number) => H - (value / top) * H;
  const slot = W / Math.max(1, n);
  const cx = (i: number) => slot * i + slot / 2;
  const line = (values: number[]) => values.map((v, i) => `${i === 0 ? "M" : "L"}${cx(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  // A day's hours get every other one; a month's days about six.
  const shown = n === 0 ? [] : axisLabels(n, n <= 25 ? 12 : 6);
  const total = (values: number[]) => (legend === "last" ? (values[values.length - 1] ?? 0) : values.reduce((a, b) => a + b, 0));
  const totalCurrent = total(current.values);
  const totalPrevious = previous ? total(previous.values) : undefined;
  const summary = `${title}: ${formatValue(totalCurrent, format)} ${current.name.toLowerCase()}${
    totalPrevious === undefined ? "" : `, ${formatValue(totalPrevious, format)} ${previous!.name.toLowerCase()}`
  }.`;

  const pick = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const i = Math.floor(((event.clientX - box.left) / box.width) * n);
    setActive(Math.min(n - 1, Math.max(0, i)));
  };
  const step = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, Home: -n, End: n };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    setActive((i) => Math.min(n - 1, Math.max(0, (i ?? (move > 0 ? -1 : n)) + move)));
  };

  return (
    <figure className={cn("chart rounded-lg border border-border bg-card p-4 sm:p-5", className)} aria-labelledby={`${id}-title`}>
      <figcaption className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div>
          <h3 id={`${id}-title`} className="text-sm font-semibold tracking-wide">
            {title}
          </h3>
          {description ? <p className="mt-0.5 text-xs text-muted-foreground">{description}</p> : null}
        </div>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Legend">
          <li className="flex items-center gap-1.5">
            <span aria-hidden className="chart-swatch-current inline-block size-2.5 rounded-sm" />
            {current.name}: <span className="font-medium text-foreground tabular-nums">{formatValue(totalCurrent, format)}</span>
          </li>
          {previous ? (
            <li className="flex items-center gap-1.5">
              <span aria-hidden className="chart-swatch-previous inline-block h-0 w-3 border-t-2 border-dashed" />
              {previous.name}: <span className="font-medium text-foreground tabular-nums">{formatValue(totalPrevious!, format)}</span>
            </li>
          ) : null}
        </ul>
      </figcaption>

      <div className="mt-4 grid grid-cols-[auto_1fr] gap-x-2">
        <div aria-hidden className="relative h-44 w-12 text-right text-[11px] text-muted-foreground tabular-nums sm:h-52">
          {ticks.map((tick) => (
            <span key={tick} className="absolute right-0 -translate-y-1/2 whitespace-nowrap" style={{ top: `${(y(tick) / H) * 100}%` }}>
              {formatTick(tick, format)}
            </span>
          ))}
        </div>
        <div
          className="relative h-44 touch-none outline-none focus-visible:ring-2 focus-visible:ring-ring/60 sm:h-52"
          tabIndex={0}
          aria-describedby={`${id}-table`}
          onPointerMove={pick}
          onPointerDown={pick}
          onPointerLeave={() => setActive(null)}
          onKeyDown={step}
          onBlur={() => setActive(null)}
        >
          <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="absolute inset-0 size-full overflow-visible" role="img">
            <title>{summary}</title>
            {ticks.map((tick) => (
              <line key={tick} x1={0} x2={W} y1={y(tick)} y2={y(tick)} className="chart-grid" vectorEffect="non-scaling-stroke" />
            ))}
            {kind === "bar" ? (
              current.values.map((v, i) => (
                <rect
                  key={i}
                  x={cx(i) - slot * 0.35}
                  width={slot * 0.7}
                  y={y(v)}
                  height={H - y(v)}
                  className={cn("chart-bar", active === i && "chart-bar-active")}
                />
              ))
            ) : (
              <path d={line(current.values)} className="chart-line" fill="none" vectorEffect="non-scaling-stroke" />
            )}
            {previous ? <path d={line(previous.values)} className="chart-previous" fill="none" vectorEffect="non-scaling-stroke" /> : null}
            {active !== null ? (
              <line x1={cx(active)} x2={cx(active)} y1={0} y2={H} className="chart-cursor" vectorEffect="non-scaling-stroke" />
            ) : null}
            {/* A native tooltip per bucket: hover detail without JavaScript. */}
            {labels.map((_, i) => (
              <rect key={i} x={slot * i} width={slot} y={0} height={H} fill="transparent">
                <title>
                  {`${longLabels[i]}: ${formatValue(current.values[i] ?? 0, format)}${
                    previous ? ` (${previous.name.toLowerCase()}: ${formatValue(previous.values[i] ?? 0, format)})` : ""
                  }`}
                </title>
              </rect>
            ))}
          </svg>
          {active !== null ? (
            <div
              role="status"
              className="pointer-events-none absolute top-1 z-10 min-w-36 rounded-md border border-border bg-popover px-3 py-2 text-xs shadow-lg"
              style={
                active < n / 2
                  ? { left: `${((active + 0.5) / n) * 100}%`, marginLeft: 8 }
                  : { right: `${((n - active - 0.5) / n) * 100}%`, marginRight: 8 }
              }
            >
              <p className="font-medium">{longLabels[active]}</p>
              <p className="mt-1 flex justify-between gap-3">
                <span className="text-muted-foreground">{current.name}</span>
                <span className="tabular-nums">{formatValue(current.values[active] ?? 0, format)}</span>
              </p>
              {previous ? (
                <p className="flex justify-between gap-3">
                  <span className="text-muted-foreground">{previous.name}</span>
                  <span className="tabular-nums">{formatValue(previous.values[active] ?? 0, format)}</span>
                </p>
              ) : null}
            </div>
          ) : null}
        </div>
        <div />
        <div aria-hidden className="relative mt-1.5 h-4 text-[11px] text-muted-foreground">
          {shown.map(({ index: i, narrow }, k) => {
            const first = k === 0;
            const last = k === shown.length - 1;
            return (
              <span
                key={i}
                // The first and last sit flush with the plot's edges; a phone shows the `narrow` ones only.
                className={cn("absolute whitespace-nowrap", !first && !last && "-translate-x-1/2", !narrow && "max-sm:hidden")}
                style={first ? { left: 0 } : last ? { right: 0 } : { left: `${((i + 0.5) / n) * 100}%` }}
              >
                {labels[i]}
              </span>
            );
          })}
        </div>
      </div>

      <details className="chart-table mt-3 text-sm">
        <summary className="text-xs text-muted-foreground hover:text-foreground">Show the figures</summary>
        <div className="mt-2 max-h-80 overflow-auto">
          <table id={`${id}-table`} className="w-full text-left text-xs tabular-nums">
            <caption className="sr-only">{title}</caption>
            <thead className="text-muted-foreground">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {bucketName}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  {current.name}
                </th>
                {previous ? (
                  <th scope="col" className="py-1 text-right font-medium">
                    {previous.name}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {labels.map((_, i) => (
                <tr key={i} className="border-t border-border">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {longLabels[i]}
                  </th>
                  <td className="py-1 pr-3 text-right">{formatValue(current.values[i] ?? 0, format)}</td>
                  {previous ? <td className="py-1 text-right">{formatValue(previous.values[i] ?? 0, format)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
