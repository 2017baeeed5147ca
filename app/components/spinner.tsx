import { cn } from "#app/lib/utils";

/**
 * A loading indicator. Screen readers hear `label` once (role="status" is a polite live region);
 * sighted users see a spinning ring, or a slow pulse when they asked for reduced motion.
 * Size it with `className` (for example `size-10`); the ring takes the current text colour.
 */
export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span
      role="status"
      data-slot="spinner"
      // A size given replaces the default one (`cn` does not resolve conflicts, decision 0029).
      className={cn(
        "inline-flex shrink-0 items-center justify-center text-foreground",
        /\bsize-/.test(className ?? "") ? null : "size-6",
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          "motion-keep block size-full rounded-full border-2 border-current border-r-current/20 border-b-current/20 border-l-current/20",
          "motion-safe:animate-spinner motion-reduce:animate-spinner-pulse",
        )}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
