import { cn } from "#app/lib/utils";

/** A thin progress bar with its percentage for screen readers. */
export function Progress({ value, label, tone = "default" }: { value: number; label: string; tone?: "default" | "error" | "done" }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-1.5 w-full overflow-hidden rounded-full bg-foreground/10"
    >
      <div
        className={cn(
          "h-full rounded-full transition-[width] duration-200",
          tone === "error" ? "bg-destructive" : tone === "done" ? "bg-emerald-400" : "bg-foreground",
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
