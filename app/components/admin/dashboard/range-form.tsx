import { Form } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { DashboardView, RangePreset } from "#server/contracts/reports";
import { DatePicker } from "#app/components/admin/settings/date-picker";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { cn } from "#app/lib/utils";

const PRESETS: { value: RangePreset; label: string }[] = [
  { value: "today", label: "Today" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "custom", label: "Custom" },
];

/**
 * The dashboard's range: a GET form, so it works without JavaScript and every view has its URL.
 * The custom days are the browser's date inputs before hydration and the admin's calendar after
 * (the same `from`/`to` either way); days are New York days.
 */
export function RangeForm({ view }: { view: DashboardView }) {
  const hydrated = useHydrated();
  const [preset, setPreset] = useState<RangePreset>(view.range.preset);
  const [from, setFrom] = useState(view.range.from);
  const [to, setTo] = useState(view.range.to);
  return (
    <Form method="get" className="no-print space-y-4 rounded-lg border border-border bg-card p-4" aria-label="Report range">
      <fieldset>
        <legend className="text-xs font-medium tracking-wider text-muted-foreground uppercase">Range</legend>
        <div className="mt-2 flex flex-wrap gap-1 rounded-lg bg-muted p-1">
          {PRESETS.map((option) => (
            <label
              key={option.value}
              className={cn(
                "inline-flex min-h-11 flex-1 cursor-pointer items-center justify-center rounded-md px-3 text-sm font-medium whitespace-nowrap",
                "text-muted-foreground hover:text-foreground has-[:checked]:bg-background has-[:checked]:text-foreground has-[:checked]:shadow",
                "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
              )}
            >
              <input
                type="radio"
                name="range"
                value={option.value}
                checked={preset === option.value}
                onChange={() => setPreset(option.value)}
                className="sr-only"
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end">
        <div className="space-y-1.5">
          <label htmlFor="report-from" className="text-sm font-medium">
            From <span className="font-normal text-muted-foreground">(custom)</span>
          </label>
          {hydrated ? (
            <DatePicker
              id="report-from"
              name="from"
              value={from}
              onChange={(day) => {
                setFrom(day);
                setPreset("custom");
              }}
              min="2020-01-01"
              today={view.today}
              label="From"
              dialogLabel="Choose the first day"
            />
          ) : (
            <Input
              id="report-from"
              type="date"
              name="from"
              defaultValue={view.range.from}
              max={view.today}
              className="[color-scheme:dark]"
            />
          )}
        </div>
        <div className="space-y-1.5">
          <label htmlFor="report-to" className="text-sm font-medium">
            To <span className="font-normal text-muted-foreground">(custom)</span>
          </label>
          {hydrated ? (
            <DatePicker
              id="report-to"
              name="to"
              value={to}
              onChange={(day) => {
                setTo(day);
                setPreset("custom");
              }}
              min={from || "2020-01-01"}
              today={view.today}
              label="To"
              dialogLabel="Choose the last day"
            />
          ) : (
            <Input id="report-to" type="date" name="to" defaultValue={view.range.to} max={view.today} className="[color-scheme:dark]" />
          )}
        </div>
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input type="checkbox" name="includeTest" value="1" defaultChecked={view.includeTest} className="size-4 accent-white" />
          Include test orders
        </label>
        <Button type="submit">Show</Button>
      </div>
    </Form>
  );
}
