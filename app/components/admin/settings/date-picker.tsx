import * as Popover from "@radix-ui/react-popover";
import { CalendarDays, ChevronDown } from "lucide-react";
import { useState } from "react";
import { dateFromYmd, formatYmdShort, ymdFromDate } from "./calendar-date";
import { Calendar } from "#app/components/ui/calendar";
import { cn } from "#app/lib/utils";

/**
 * A day chosen in a calendar that opens under a button, for hydrated pages (before hydration the
 * form renders the browser's own `<input type="date">`). Days are `YYYY-MM-DD` strings in and
 * out; `min` is the first day that may be picked (the days before it are disabled and the
 * calendar does not page back past its month) and `today` the day marked as today (both given by
 * the caller in the time zone that matters, never the browser's). A hidden input
 * carries the value under `name`, so the form posts exactly what the native input would.
 */
export function DatePicker({
  id,
  name,
  value,
  onChange,
  min,
  today,
  label,
  dialogLabel,
  placeholder = "Pick a date",
  invalid = false,
  describedBy,
}: {
  id: string;
  name: string;
  value: string | undefined;
  onChange: (ymd: string) => void;
  min: string;
  today: string;
  /** The field's visible label: the button is named "label: chosen day". */
  label: string;
  dialogLabel: string;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [open, setOpen] = useState(false);
  const selected = dateFromYmd(value);
  const first = dateFromYmd(min);
  const todayDate = dateFromYmd(today);
  const shown = formatYmdShort(value);

  return (
    <>
      <input type="hidden" name={name} value={value ?? ""} />
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild>
          <button
            type="button"
            id={id}
            aria-label={`${label}: ${shown ?? placeholder}`}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            data-testid={`${name}-picker`}
            className={cn(
              "flex h-11 w-full min-w-0 items-center gap-2.5 rounded-md border border-input bg-background/60 px-3 text-left text-base shadow-xs md:text-sm",
              "transition-[color,border-color,box-shadow] duration-150 outline-none",
              "hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
              "data-[state=open]:border-ring",
              "aria-invalid:border-destructive aria-invalid:ring-2 aria-invalid:ring-destructive/30",
            )}
          >
            <CalendarDays aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            <span className={cn("min-w-0 flex-1 truncate", shown ? "tabular-nums" : "text-muted-foreground")}>{shown ?? placeholder}</span>
            <ChevronDown
              aria-hidden="true"
              className={cn("size-4 shrink-0 text-muted-foreground transition-transform duration-150", open && "rotate-180")}
            />
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="start"
            sideOffset={6}
            collisionPadding={8}
            aria-label={dialogLabel}
            data-testid={`${name}-calendar`}
            // DayPicker moves focus to the chosen day (or today) itself: keyboard users land in the grid.
            onOpenAutoFocus={(event) => event.preventDefault()}
            className="popover-grow z-50 rounded-lg border border-border bg-popover text-popover-foreground shadow-[0_24px_60px_-12px_rgb(0_0_0/0.8)]"
          >
            <Calendar
              mode="single"
              required
              autoFocus
              selected={selected}
              onSelect={(day) => {
                onChange(ymdFromDate(day));
                setOpen(false);
              }}
              disabled={first ? { before: first } : undefined}
              startMonth={first}
              today={todayDate}
              defaultMonth={selected ?? first ?? todayDate}
              labels={{ labelPrevious: () => "Previous month", labelNext: () => "Next month" }}
            />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </>
  );
}
