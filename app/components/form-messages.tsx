import { AlertCircle } from "lucide-react";

/** A field's messages, tied to the input by aria-describedby (conform sets it from errorId). */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} className="min-h-5 text-sm text-destructive" aria-live="polite">
      {errors?.[0]}
    </div>
  );
}

/** A form-level failure, shown inline so it is read even without JavaScript. */
export function FormAlert({ id, title, errors }: { id: string; title: string; errors?: string[] }) {
  if (!errors?.length) return <div id={id} />;
  return (
    <div id={id} role="alert" className="flex gap-3 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
      <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
      <div>
        <p className="font-medium">{title}</p>
        <p className="text-muted-foreground">{errors[0]}</p>
      </div>
    </div>
  );
}
