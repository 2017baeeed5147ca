/*
 * The honeypot's names without zod, so a page that only renders the field (the bag, the header's
 * dropdown) does not download the schema library (decision 0029). bots.ts and subscribe.ts re-export them.
 */

/** The honeypot field's name: people never see it, form-filling bots do. */
export const HONEYPOT_FIELD = "website";

/** The cart and checkout forms carry the same field as the sign-up card (decision 0020). */
export const BOT_FIELD = HONEYPOT_FIELD;
