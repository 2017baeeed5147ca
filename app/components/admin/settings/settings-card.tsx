import type { LucideIcon } from "lucide-react";
import { CircleAlert, CircleCheck } from "lucide-react";
import type { ReactNode } from "react";
import type { Notice } from "#app/lib/use-notice-toast";
import { cn } from "#app/lib/utils";

/** One settings section: an icon, a heading (h3 under the tab's h2), a line of help, the form. */
export function SettingsCard({
  id,
  icon: Icon,
  title,
  description,
  children,
  className,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className={cn("scroll-mt-24 rounded-lg border border-border bg-card", className)}>
      <header className="flex gap-3 border-b border-border px-5 py-4 sm:px-6">
        <span
          className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground"
          aria-hidden="true"
        >
          <Icon className="size-4.5" />
        </span>
        <div className="min-w-0">
          <h3 id={`${id}-title`} className="font-display text-2xl leading-tight tracking-wide">
            {title}
          </h3>
          <p className="mt-0.5 text-sm text-pretty text-muted-foreground">{description}</p>
        </div>
      </header>
      <div className="space-y-5 px-5 py-5 sm:px-6">{children}</div>
    </section>
  );
}

/** A notice printed in the card: what the toast says, for pages without JavaScript. */
export function InlineNotice({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  const error = notice.kind === "error";
  const Icon = error ? CircleAlert : CircleCheck;
  return (
    <div
      role={error ? "alert" : "status"}
      className={cn(
        "flex gap-3 rounded-md border p-3 text-sm",
        error ? "border-destructive/50 bg-destructive/10" : "border-success/40 bg-success/10",
      )}
    >
      <Icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", error ? "text-destructive" : "text-success")} />
      <div className="min-w-0">
        <p className="font-medium">{notice.title}</p>
        {notice.description ? <p className="break-words text-muted-foreground">{notice.description}</p> : null}
      </div>
    </div>
  );
}

/** A multi-line input in the look of `~/components/ui/input`. */
export function Textarea({ className, ...props }: React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      className={cn(
        "flex min-h-24 w-full min-w-0 rounded-md border border-input bg-background/60 px-3 py-2 text-base text-foreground shadow-xs md:text-sm",
        "placeholder:text-muted-foreground transition-[color,border-color,box-shadow] duration-150 outline-none",
        "hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
        "disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-2 aria-invalid:ring-destructive/30",
        className,
      )}
      {...props}
    />
  );
}
