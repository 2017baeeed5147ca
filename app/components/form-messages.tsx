import { ErrorBox } from "./error-box";

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
  return <ErrorBox id={id} title={title} message={errors[0]!} />;
}
