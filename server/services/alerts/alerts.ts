import { formatStoreTime } from "#server/contracts/store-time";
import type { AppContext } from "#server/context";
import { mailerFor } from "#server/integrations/mail";
import { logError, logWarning } from "#server/observability/log";
import { escapeHtml } from "#server/services/security/sanitize";
import { alertRecipients } from "./alert-recipients";

/**
 * What the deployer is told by e-mail (issue 27), each kind at most once per window on every
 * worker and instance together: the window lives in the database (alert_windows), not in a process.
 */
export const ALERT_KINDS = {
  "label-failed": "A shipping label could not be bought",
  "payment-stranded": "A payment is stranded",
  "webhook-signatures": "Stripe webhook signatures are failing",
  "outbox-failing": "E-mail is failing",
  "sold-out": "A product sold out",
  "fulfilment-behind": "Fulfilment is behind",
  "worker-restarts": "A worker keeps restarting",
} as const;

export type AlertKind = keyof typeof ALERT_KINDS;

export const ALERT_WINDOW_MS = 15 * 60_000;
/** The tag of the alert e-mails in the outbox: a failing alert e-mail raises no alert of its own. */
export const ALERT_TAG = "alert";

type Claimed = { held: number; lastDetail: string | null; since: string | null };

/**
 * Opens a new window for the kind when none is open: true for the one process that did (it sends),
 * with what the closed window held. Insert-if-absent, then compare-and-set on the window's start,
 * so two workers raising the same alert at once send one e-mail.
 */
async function claimWindow(ctx: AppContext, kind: AlertKind): Promise<Claimed | null> {
  const now = ctx.clock.now();
  const started = now.toISOString();
  const inserted = await ctx.db
    .insertInto("alertWindows")
    .values({ kind, windowStartedAt: started, held: 0, lastDetail: null })
    .onConflict((oc) => oc.column("kind").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { held: 0, lastDetail: null, since: null };
  const row = await ctx.db.selectFrom("alertWindows").selectAll().where("kind", "=", kind).executeTakeFirst();
  if (!row || new Date(row.windowStartedAt).getTime() + ALERT_WINDOW_MS > now.getTime()) return null;
  const moved = await ctx.db
    .updateTable("alertWindows")
    .set({ windowStartedAt: started, held: 0, lastDetail: null })
    .where("kind", "=", kind)
    .where("windowStartedAt", "=", row.windowStartedAt)
    .where("held", "=", row.held)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1 ? { held: Number(row.held), lastDetail: row.lastDetail, since: row.windowStartedAt } : null;
}

async function send(ctx: AppContext, kind: AlertKind, detail: string, claimed: Claimed): Promise<void> {
  const brand = ctx.config.brand.name;
  const title = ALERT_KINDS[kind];
  const lines = [detail];
  if (claimed.held > 0) {
    lines.push(
      `${claimed.held} more since ${formatStoreTime(claimed.since, "MMM d, h:mm a zzz")}${claimed.lastDetail ? `; the last: ${claimed.lastDetail}` : ""}.`,
    );
  }
  lines.push(`At most one e-mail of this kind is sent every ${ALERT_WINDOW_MS / 60_000} minutes; more are counted into the next.`);
  const mailer = mailerFor(ctx);
  for (const to of await alertRecipients(ctx)) {
    const sent = await mailer.send({
      to,
      subject: `[${brand}] ${title}`,
      text: lines.join("\n\n"),
      html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""),
      stream: "outbound",
      tag: ALERT_TAG,
    });
    if (sent.status === "failed") logWarning(`The "${kind}" alert e-mail could not be sent: ${sent.error ?? "unknown error"}`);
  }
}

/**
 * Raises an alert: e-mailed now when the kind's window is closed, else counted into the next
 * digest (flushAlertDigests). Never throws: an alert that fails is logged, and the work that
 * raised it goes on. Every alert is a log line too.
 */
export async function raiseAlert(ctx: AppContext, kind: AlertKind, detail: string): Promise<"sent" | "held" | "failed"> {
  logWarning(`Alert (${kind}): ${detail}`);
  try {
    const claimed = await claimWindow(ctx, kind);
    if (claimed) {
      await send(ctx, kind, detail, claimed);
      return "sent";
    }
    await ctx.db
      .updateTable("alertWindows")
      .set((eb) => ({ held: eb("held", "+", 1), lastDetail: detail.slice(0, 500) }))
      .where("kind", "=", kind)
      .execute();
    return "held";
  } catch (error) {
    logError(`The "${kind}" alert could not be raised`, error);
    return "failed";
  }
}

/**
 * The digests (the sweeper, every 30 s): a kind whose window closed with alerts held gets one
 * e-mail counting them, which opens its next window. Returns how many digests were sent.
 */
export async function flushAlertDigests(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - ALERT_WINDOW_MS).toISOString();
  const due = await ctx.db
    .selectFrom("alertWindows")
    .select(["kind", "lastDetail"])
    .where("held", ">", 0)
    .where("windowStartedAt", "<=", cutoff)
    .execute();
  let sent = 0;
  for (const row of due) {
    if (!(row.kind in ALERT_KINDS)) continue;
    const kind = row.kind as AlertKind;
    const claimed = await claimWindow(ctx, kind);
    if (!claimed) continue;
    await send(ctx, kind, "Alerts of this kind kept coming after the last e-mail.", claimed);
    sent++;
  }
  return sent;
}
