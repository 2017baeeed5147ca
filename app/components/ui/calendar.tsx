import { ChevronLeft, ChevronRight } from "lucide-react";
import type * as React from "react";
import { DayPicker, type ChevronProps } from "react-day-picker";
import { cn } from "#app/lib/utils";

function CalendarChevron({ orientation, className }: ChevronProps) {
  const Icon = orientation === "left" ? ChevronLeft : ChevronRight;
  return <Icon aria-hidden="true" className={cn("size-4", className)} />;
}

const navButton = cn(
  "inline-flex size-(--cell-size) items-center justify-center rounded-md text-foreground transition-colors",
  "outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
  "aria-disabled:pointer-events-none aria-disabled:opacity-35",
);

/**
 * A month calendar in the look of the store (dark, white selection), built on react-day-picker
 * in the manner of shadcn/ui. Every day is a button at least 40 px square (44 px on phones);
 * the arrow keys, Page Up/Down and Home/End move between days (DayPicker's own grid keyboard).
 */
export function Calendar({
  className,
  classNames,
  components,
  showOutsideDays = true,
  fixedWeeks = true,
  ...props
}: React.ComponentProps<typeof DayPicker>) {
  return (
    <DayPicker
      showOutsideDays={showOutsideDays}
      // Six weeks in every month: paging never resizes the popover under the pointer.
      fixedWeeks={fixedWeeks}
      navLayout="around"
      className={cn("p-3 [--cell-size:2.75rem] sm:[--cell-size:2.5rem]", className)}
      classNames={{
        months: "relative flex flex-col gap-4",
        month: "grid grid-cols-[auto_1fr_auto] items-center gap-y-3",
        month_caption: "flex h-(--cell-size) items-center justify-center",
        caption_label: "text-sm font-semibold tracking-wide select-none",
        button_previous: navButton,
        button_next: navButton,
        month_grid: "col-span-3 border-collapse",
        weekdays: "flex",
        weekday: "w-(--cell-size) pb-1 text-center text-[0.75rem] font-medium text-muted-foreground select-none",
        week: "mt-1 flex",
        day: "group/day relative size-(--cell-size) p-0 text-center select-none",
        day_button: cn(
          "relative inline-flex size-full items-center justify-center rounded-md text-sm tabular-nums transition-colors",
          "outline-none hover:bg-accent focus-visible:relative focus-visible:z-10 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-popover",
          "disabled:pointer-events-none aria-disabled:pointer-events-none",
          "group-data-[selected]/day:bg-primary group-data-[selected]/day:font-semibold group-data-[selected]/day:text-primary-foreground group-data-[selected]/day:hover:bg-primary/85",
        ),
        today:
          "[&>button]:font-semibold [&>button]:after:absolute [&>button]:after:bottom-1.5 [&>button]:after:left-1/2 [&>button]:after:size-1 [&>button]:after:-translate-x-1/2 [&>button]:after:rounded-full [&>button]:after:bg-current",
        outside: "text-muted-foreground",
        disabled: "text-muted-foreground/45 [&>button]:line-through [&>button]:decoration-muted-foreground/40",
        hidden: "invisible",
        ...classNames,
      }}
      components={{ Chevron: CalendarChevron, ...components }}
      {...props}
    />
  );
}
