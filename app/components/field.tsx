import type { ReactNode } from "react";
import { FieldError } from "./form-messages";
import { Label } from "./ui/label";
import { cn } from "#app/lib/utils";

/** The ids and messages of one field: a conform field has them all; other forms make them up. */
export interface FieldMeta {
  id: string;
  errorId: string;
  descriptionId?: string;
  errors?: string[];
}

/**
 * A form field: label, control, help text and the field's first error. The control points at the
 * help and the error with aria-describedby (conform's getInputProps does that from the same ids).
 */
export function Field({
  field,
  label,
  hint,
  className,
  children,
}: {
  field: FieldMeta;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-2", className)}>
      <Label htmlFor={field.id}>{label}</Label>
      {children}
      {hint ? (
        <p id={field.descriptionId ?? `${field.id}-description`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}
