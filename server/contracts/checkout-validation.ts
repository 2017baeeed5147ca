import { customerInfoSchema } from "./checkout";
import type { CheckoutValues } from "./checkout-form";
import { fieldErrorsOf } from "./field-errors";

/*
 * The checkout's own check of the customer fields, in a file of its own: the page imports it when
 * Process Order is pressed, so zod is not part of the page's first load (decision 0029).
 */
/** Field messages of the customer details; empty when they are valid. */
export function customerErrors(values: CheckoutValues): Record<string, string[]> {
  const parsed = customerInfoSchema.safeParse(values);
  return parsed.success ? {} : fieldErrorsOf(parsed.error);
}
