import { getFormProps, getInputProps, useForm, useInputControl } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDistanceStrict } from "date-fns";
import { CalendarClock } from "lucide-react";
import { useHydrated } from "remix-utils/use-hydrated";
import { DatePicker } from "./date-picker";
import type { SettingsActionData } from "#server/contracts/admin-settings";
import { InlineNotice, SettingsCard } from "./settings-card";
import { Field } from "#app/components/field";
import { useIntentFetcher } from "./use-intent-fetcher";
import { countdownDateSchema, type AdminSettingsView } from "#server/contracts/admin-settings";
import { formatUtcTime, STORE_TIME_ZONE, storeWallClockToUtc } from "#server/contracts/store-time";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { cn } from "#app/lib/utils";

/** What the typed date and time mean, in UTC and from now; null until both are complete and real. */
function preview(date: string | undefined, time: string | undefined): { utc: string; instant: Date } | null {
  const instant = date && time ? storeWallClockToUtc(date, time) : null;
  if (!instant) return null;
  return { instant, utc: formatUtcTime(instant) };
}

/**
 * docs/spec.md §2/§5 "Countdown date form": a day (days before today, in New York, cannot be picked) and a
 * 24-hour time, both New York wall-clock. The server turns them into the UTC instant (DST-aware)
 * and the public countdown follows at once. The date is picked in a calendar whose days before
 * today are disabled; before hydration (and without JavaScript) it is the browser's own
 * `<input type="date" min>`, so the form posts the same `date=YYYY-MM-DD` either way.
 */
export function CountdownForm({ countdown, today }: { countdown: AdminSettingsView["countdown"]; today: string }) {
  const { fetcher, result, pending, inlineNotice } = useIntentFetcher<SettingsActionData>("countdown-date");
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "countdown-date",
    lastResult: pending ? undefined : result?.lastResult,
    // A target already in the past is no default for a field that only takes today or later.
    defaultValue: { date: countdown.date >= today ? countdown.date : "", time: countdown.time },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: countdownDateSchema }),
  });
  // The calendar is not a native input: conform follows it through a hidden input it fires events on.
  const dateControl = useInputControl(fields.date);
  const dateValue = hydrated ? dateControl.value : fields.date.value;
  const typed = preview(dateValue, fields.time.value);
  const timeHintId = fields.time.descriptionId;

  return (
    <SettingsCard
      id="countdown-timer"
      icon={CalendarClock}
      title="Countdown Timer"
      description={`When the launch countdown reaches zero and sends visitors to the store. Times are New York time (${STORE_TIME_ZONE}).`}
    >
      <div className="rounded-md border border-border bg-background/40 px-4 py-3">
        <p className="text-xs tracking-wider text-muted-foreground uppercase">Current target</p>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 font-medium" data-testid="countdown-current">
          <time dateTime={countdown.value}>{countdown.label}</time>
          <span
            className={cn(
              "rounded-full px-2 py-0.5 text-[11px] font-semibold tracking-wider uppercase",
              countdown.passed ? "bg-muted text-muted-foreground" : "bg-success/15 text-success",
            )}
          >
            {countdown.passed ? "Passed" : "Counting down"}
          </span>
        </p>
      </div>

      <fetcher.Form method="post" {...getFormProps(form)} className="space-y-1">
        <input type="hidden" name="intent" value="countdown-date" />
        <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
          <Field label="Launch date" field={fields.date}>
            {hydrated ? (
              <DatePicker
                id={fields.date.id}
                name={fields.date.name}
                value={dateControl.value}
                onChange={dateControl.change}
                min={today}
                today={today}
                label="Launch date"
                dialogLabel="Choose the launch date"
                invalid={!fields.date.valid}
                describedBy={fields.date.valid ? undefined : fields.date.errorId}
              />
            ) : (
              <Input {...getInputProps(fields.date, { type: "date" })} key={fields.date.key} min={today} className="[color-scheme:dark]" />
            )}
          </Field>
          <Field label="Time (24-hour, ET)" field={fields.time} hint="HH:MM, for example 18:30.">
            <Input
              {...getInputProps(fields.time, { type: "text" })}
              key={fields.time.key}
              inputMode="numeric"
              placeholder="HH:MM"
              maxLength={5}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${timeHintId} ${fields.time.errorId}`}
              className="font-mono tabular-nums"
            />
          </Field>
        </div>
        <InlineNotice notice={inlineNotice} />
        <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-muted-foreground" aria-live="polite">
            {typed ? (
              <>
                That is {typed.utc}
                {hydrated ? `, ${formatDistanceStrict(typed.instant, new Date(), { addSuffix: true })}` : ""}.
              </>
            ) : null}
          </p>
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            {pending ? "Saving..." : "Update Countdown Date"}
          </Button>
        </div>
      </fetcher.Form>
    </SettingsCard>
  );
}
