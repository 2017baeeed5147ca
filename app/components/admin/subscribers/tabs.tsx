import type { LucideIcon } from "lucide-react";
import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "#app/lib/utils";

export interface TabItem<T extends string> {
  id: T;
  label: string;
  icon: LucideIcon;
}

/**
 * The inner tab bar (WAI-ARIA tabs: arrow keys, Home and End move between tabs, one tab stop).
 * `trailing` sits at the end of the bar, for a link that is not a tab.
 */
export function TabBar<T extends string>({
  items,
  value,
  onChange,
  idPrefix,
  label,
  trailing,
}: {
  items: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  idPrefix: string;
  label: string;
  trailing?: ReactNode;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const next =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    onChange(items[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <div className="flex flex-col-reverse gap-1 border-b border-border sm:flex-row sm:items-center sm:justify-between sm:gap-3">
      <div role="tablist" aria-label={label} className="-mb-px flex max-w-full overflow-x-auto">
        {items.map((item, index) => {
          const selected = item.id === value;
          const Icon = item.icon;
          return (
            <button
              key={item.id}
              ref={(el) => void (refs.current[index] = el)}
              type="button"
              role="tab"
              id={`${idPrefix}-tab-${item.id}`}
              aria-selected={selected}
              aria-controls={`${idPrefix}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={cn(
                "inline-flex min-h-11 flex-1 items-center justify-center gap-2 border-b-2 px-2 text-[13px] font-medium whitespace-nowrap transition-colors outline-none sm:flex-none sm:px-4 sm:text-sm",
                "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
                selected ? "border-foreground text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
              )}
            >
              <Icon aria-hidden className="hidden size-4 sm:block" />
              {item.label}
            </button>
          );
        })}
      </div>
      {trailing ? <div className="self-end sm:pb-2">{trailing}</div> : null}
    </div>
  );
}

export function TabPanel({ idPrefix, id, children }: { idPrefix: string; id: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${idPrefix}-panel-${id}`} aria-labelledby={`${idPrefix}-tab-${id}`} className="pt-6 outline-none">
      {children}
    </div>
  );
}
