import type { ReactNode } from "react";
import { cn } from "#app/lib/utils";

/** A card-like group of fields with a title (and an optional line of help). */
export function Section({
  title,
  description,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={cn("rounded-lg border border-border bg-card p-5 sm:p-6", className)}>
      <h3 className="text-sm font-semibold tracking-[0.14em] uppercase">{title}</h3>
      {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      <div className="mt-5 space-y-4">{children}</div>
    </section>
  );
}

export const textareaClass = cn(
  "flex min-h-28 w-full rounded-md border border-input bg-background/60 px-3 py-2 text-base text-foreground shadow-xs md:text-sm",
  "placeholder:text-muted-foreground outline-none transition-[color,border-color,box-shadow] duration-150",
  "hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
  "aria-invalid:border-destructive aria-invalid:ring-2 aria-invalid:ring-destructive/30",
);

/**
 * A checkbox drawn as a switch: a real <input type="checkbox"> (so the form posts "on" or
 * nothing), with the track and knob painted by its sibling.
 */
export function Switch({
  label,
  description,
  inputProps,
}: {
  label: string;
  description?: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { key?: string };
}) {
  const { key, ...props } = inputProps;
  return (
    <label className="flex cursor-pointer items-start justify-between gap-4 rounded-md py-1">
      <span className="min-w-0">
        <span className="block text-sm font-medium">{label}</span>
        {description ? <span className="mt-0.5 block text-xs text-muted-foreground">{description}</span> : null}
      </span>
      <span className="relative mt-0.5 inline-flex shrink-0">
        <input
          key={key}
          type="checkbox"
          role="switch"
          className="peer absolute inset-0 z-10 size-full cursor-pointer opacity-0"
          {...props}
        />
        <span
          aria-hidden
          className={cn(
            "h-6 w-11 rounded-full bg-foreground/20 transition-colors peer-checked:bg-emerald-500",
            "peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-background",
            "after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-5",
          )}
        />
      </span>
    </label>
  );
}
