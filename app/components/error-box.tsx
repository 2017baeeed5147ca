import { CircleAlert } from "lucide-react";
import { cn } from "#app/lib/utils";

/**
 * A failure shown inline: a title and one line of detail, announced as it appears (role="alert"),
 * so it is read even without JavaScript. Padding and margins come from `className`, and the icon's
 * red from `iconClassName`: forms use the theme's destructive red, the checkout a softer one.
 */
export function ErrorBox({
  title,
  message,
  id,
  testId,
  className = "p-3",
  iconClassName = "text-destructive",
}: {
  title: string;
  message: string;
  id?: string;
  testId?: string;
  className?: string;
  iconClassName?: string;
}) {
  return (
    <div
      id={id}
      role="alert"
      className={cn("flex gap-3 rounded-md border border-destructive/50 bg-destructive/10 text-sm", className)}
      data-testid={testId}
    >
      <CircleAlert aria-hidden="true" className={cn("mt-0.5 size-4 shrink-0", iconClassName)} />
      <div>
        <p className="font-medium">{title}</p>
        <p className="text-muted-foreground">{message}</p>
      </div>
    </div>
  );
}
