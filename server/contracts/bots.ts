import { z } from "zod";
import { BOT_FIELD } from "./honeypot";

/**
 * Issue 12 part 4 (decision 0020): the cart and checkout forms carry the same honeypot field as the
 * sign-up card. People never see it; form-filling bots fill it. A filled one is refused with a
 * message that says nothing about why, as a store answers any request it could not take.
 */
export { BOT_FIELD };
export const BOT_REFUSAL = "We couldn't process this request. Please try again.";

/** The field in a JSON body: optional, so the REST API is unaffected unless a caller sends it. */
export const botFieldSchema = z.unknown().optional();

/** True when the field came back with anything in it. */
export const honeypotFilled = (value: unknown): boolean => value !== undefined && value !== null && String(value) !== "";
