import type { z } from "zod";

/** Messages per field, as REST's `errors`, tRPC's `fieldErrors` and conform replies carry them. */
export type FieldErrors = Record<string, string[]>;

/**
 * A zod error's messages by field: the dotted path ("address.zipCode"), "" for the value as a
 * whole, each field's messages in the order zod found them.
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.join(".")] ??= []).push(issue.message);
  return errors;
}
