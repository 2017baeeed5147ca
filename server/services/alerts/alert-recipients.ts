import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";

/** The App Settings row holding who gets the alerts (kept out of the public settings: it lists addresses). */
export const ALERT_RECIPIENTS_KEY = "alert_recipients";
/** Enough for a small on-call rota; more is a paste gone wrong. */
export const MAX_ALERT_RECIPIENTS = 10;

const ADDRESS = /^[^\s@,;<>"]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+$/;

/** Addresses from text separated by commas, semicolons, spaces or lines; null when one is not an address. */
export function parseAlertRecipients(text: unknown): string[] | null {
  if (typeof text !== "string" || text.length > 2_000) return null;
  const addresses = [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
  if (addresses.length > MAX_ALERT_RECIPIENTS || !addresses.every((address) => ADDRESS.test(address))) return null;
  return addresses;
}

/** Who the alerts go to: the App Settings list, or the admin address (ADMIN_EMAIL) when it is unset or empty. */
export async function alertRecipients(ctx: AppContext): Promise<string[]> {
  const row = await ctx.db.selectFrom("appSettings").select("value").where("key", "=", ALERT_RECIPIENTS_KEY).executeTakeFirst();
  const listed = row ? parseAlertRecipients(row.value) : null;
  return listed?.length ? listed : [ctx.config.admin.email];
}

/** Sets the list (empty: back to the admin address); a list with something not an address changes nothing. */
export async function setAlertRecipients(ctx: AppContext, text: unknown): Promise<string[]> {
  const addresses = parseAlertRecipients(text);
  if (!addresses) {
    throw new Invalid(`Alert recipients are up to ${MAX_ALERT_RECIPIENTS} e-mail addresses, separated by commas.`, {
      value: ["Enter e-mail addresses separated by commas."],
    });
  }
  const value = addresses.join(", ");
  const updatedAt = ctx.clock.now().toISOString();
  const updated = await ctx.db
    .updateTable("appSettings")
    .set({ value, updatedAt })
    .where("key", "=", ALERT_RECIPIENTS_KEY)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await ctx.db.insertInto("appSettings").values({ key: ALERT_RECIPIENTS_KEY, value, updatedAt }).execute();
  }
  return alertRecipients(ctx);
}
