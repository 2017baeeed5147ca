import { BOT_REFUSAL, honeypotFilled } from "#server/contracts/bots";
import { Invalid } from "#server/errors";

/**
 * A filled honeypot (decision 0020): refused as a plain bad request before anything is read or
 * written, so the bag, the stock and the rate-limit counters stay as they were. Every door of the
 * cart and checkout calls this first.
 */
export function refuseFilledHoneypot(value: unknown): void {
  if (honeypotFilled(value)) throw new Invalid(BOT_REFUSAL);
}
