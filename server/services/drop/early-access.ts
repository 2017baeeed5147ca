import { sql } from "kysely";
import {
  DEFAULT_EARLY_MINUTES,
  EARLY_ACCESS_TAG,
  EARLY_ACCESS_MESSAGES,
  type EarlyAccessLanding,
  type EarlyAccessLinkView,
  type EarlyAccessOverview,
} from "#server/contracts/early-access";
import { formatLaunchTime } from "#server/contracts/store-time";
import type { AppContext } from "#server/context";
import { Conflict, NotFound } from "#server/errors";
import { linkIdOf, linkToken, newPass, readPass } from "./early-access-pass";
import { bindPassToBag, passFreeFor } from "./pass-bindings";
import { escapeHtml } from "#server/services/security/sanitize";
import { getSettingValue } from "#server/services/store/settings";
import { cachedRoom } from "./waiting-room-state";

/**
 * Early access (issue 12 part 2, decision 0020). An admin makes a link per subscriber; the first
 * browser that claims it within `earlyMinutes` before a release gets a pass, and with it sees and
 * buys countdown-restricted products whose release is at most `earlyMinutes` after the claim.
 */

// An app_settings row of its own, kept out of SETTING_KEYS: those are public (the launch pages).
const MINUTES_KEY = "early_access_minutes";

export async function getEarlyMinutes(ctx: AppContext): Promise<number> {
  const row = await ctx.db.selectFrom("appSettings").select("value").where("key", "=", MINUTES_KEY).executeTakeFirst();
  const value = Number(row?.value);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_EARLY_MINUTES;
}

/** The admin's setting (already checked by earlyMinutesSchema at the door). */
export async function setEarlyMinutes(ctx: AppContext, minutes: number): Promise<{ earlyMinutes: number }> {
  const updatedAt = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto("appSettings")
    .values({ key: MINUTES_KEY, value: String(minutes), updatedAt })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(minutes), updatedAt }))
    .execute();
  return { earlyMinutes: minutes };
}

export const earlyAccessUrl = (ctx: AppContext, origin: string, id: number) =>
  `${origin}/early-access/${linkToken(ctx.config.sessionSecret, id)}`;

/** One link for an active subscriber, by e-mail (POST /api/admin/early-access). */
export async function createEarlyAccessLink(ctx: AppContext, email: string, origin: string): Promise<{ id: number; url: string }> {
  const subscriber = await ctx.db
    .selectFrom("subscribers")
    .select(["id", "email"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where("unsubscribedAt", "is", null)
    .executeTakeFirst();
  if (!subscriber) throw new NotFound(EARLY_ACCESS_MESSAGES.notSubscriber, { email: [EARLY_ACCESS_MESSAGES.notSubscriber] });
  const { id } = await ctx.db
    .insertInto("earlyAccessLinks")
    .values({ email: subscriber.email, subscriberId: subscriber.id, createdAt: ctx.clock.now().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, url: earlyAccessUrl(ctx, origin, id) };
}

/**
 * The links of a campaign's recipients, made on first need (UNIQUE per campaign and subscriber),
 * so a resumed send mails the same link it would have the first time.
 */
export async function campaignLinks(
  ctx: AppContext,
  campaignId: number,
  recipients: { subscriberId: number; email: string }[],
  origin: string,
): Promise<Map<number, string>> {
  if (recipients.length === 0) return new Map();
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto("earlyAccessLinks")
    .values(recipients.map((r) => ({ email: r.email, subscriberId: r.subscriberId, campaignId, createdAt: now })))
    .onConflict((oc) => oc.columns(["campaignId", "subscriberId"]).where("campaignId", "is not", null).doNothing())
    .execute();
  const rows = await ctx.db
    .selectFrom("earlyAccessLinks")
    .select(["id", "subscriberId"])
    .where("campaignId", "=", campaignId)
    .where(
      "subscriberId",
      "in",
      recipients.map((r) => r.subscriberId),
    )
    .execute();
  return new Map(rows.map((row) => [row.subscriberId!, earlyAccessUrl(ctx, origin, row.id)]));
}

function toView(row: Omit<EarlyAccessLinkView, "status">): EarlyAccessLinkView {
  return { ...row, status: row.revokedAt ? "revoked" : row.openedAt ? "used" : "unused" };
}

/** The admin's list: the setting and the newest links first (at most 500). */
export async function earlyAccessOverview(ctx: AppContext): Promise<EarlyAccessOverview> {
  const rows = await ctx.db
    .selectFrom("earlyAccessLinks")
    .select(["id", "email", "campaignId", "createdAt", "openedAt", "revokedAt"])
    .orderBy("id", "desc")
    .limit(500)
    .execute();
  return { earlyMinutes: await getEarlyMinutes(ctx), links: rows.map(toView) };
}

/** Revokes a link: unopened it can no longer be claimed, opened its pass stops working. Idempotent. */
export async function revokeEarlyAccessLink(ctx: AppContext, id: number): Promise<EarlyAccessLinkView> {
  await ctx.db
    .updateTable("earlyAccessLinks")
    .set({ revokedAt: ctx.clock.now().toISOString() })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .execute();
  const row = await ctx.db
    .selectFrom("earlyAccessLinks")
    .select(["id", "email", "campaignId", "createdAt", "openedAt", "revokedAt"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new NotFound(EARLY_ACCESS_MESSAGES.notFound);
  return toView(row);
}

/**
 * The next release of a countdown-restricted product still to come (its own date, or the store's
 * launch when it has none), or null when every drop is out.
 */
async function nextRelease(ctx: AppContext): Promise<number | null> {
  const now = ctx.clock.now().getTime();
  const launch = Date.parse(await getSettingValue(ctx, "countdown_date"));
  const rows = await ctx.db
    .selectFrom("products")
    .select("countdownReleaseDate")
    .where("isCountdownRestricted", "=", 1)
    .where("isVisible", "=", 1)
    .execute();
  const upcoming = rows
    .map((row) => (row.countdownReleaseDate ? Date.parse(row.countdownReleaseDate) : launch))
    .filter((release) => Number.isFinite(release) && release > now);
  return upcoming.length ? Math.min(...upcoming) : null;
}

type Checked = { kind: "store" } | { kind: "mine" } | EarlyAccessLanding;

/** What a link is worth right now, for this browser (its pass, if any). Writes nothing. */
async function check(ctx: AppContext, token: string, pass: string | null): Promise<Checked & { linkId?: number }> {
  const id = linkIdOf(ctx.config, token);
  const row = id
    ? await ctx.db
        .selectFrom("earlyAccessLinks")
        .select(["id", "openedAt", "passHash", "revokedAt"])
        .where("id", "=", id)
        .executeTakeFirst()
    : undefined;
  if (!row) return { kind: "refused", message: EARLY_ACCESS_MESSAGES.invalid };
  if (row.revokedAt) return { kind: "refused", message: EARLY_ACCESS_MESSAGES.revoked };
  const mine = readPass(ctx.config, pass);
  if (row.openedAt) {
    return mine && mine.linkId === row.id && mine.hash === row.passHash
      ? { kind: "mine" }
      : { kind: "refused", message: EARLY_ACCESS_MESSAGES.used };
  }
  const release = await nextRelease(ctx);
  // After the release there is nothing early left: the link simply leads to the store.
  if (release === null) return { kind: "store" };
  const opensAt = release - (await getEarlyMinutes(ctx)) * 60_000;
  if (ctx.clock.now().getTime() < opensAt)
    return { kind: "tooEarly", message: EARLY_ACCESS_MESSAGES.tooEarly(formatLaunchTime(new Date(opensAt))) };
  return { kind: "ready", releaseAt: new Date(release).toISOString(), linkId: row.id };
}

/** Opening a link (GET): what the page shows. Claiming is a separate step (a button), see claim. */
export async function landing(ctx: AppContext, token: string, pass: string | null): Promise<Checked> {
  const { linkId: _id, ...checked } = await check(ctx, token, pass);
  return checked;
}

/**
 * Claims a link for this browser: one conditional update, so of two browsers claiming at once
 * exactly one gets the pass. Answers the pass cookie's value, or null when there is nothing to
 * claim (after the release, or this browser already holds it).
 */
export async function claimEarlyAccessLink(ctx: AppContext, token: string, pass: string | null): Promise<{ pass: string | null }> {
  const checked = await check(ctx, token, pass);
  if (checked.kind === "store" || checked.kind === "mine") return { pass: null };
  if (checked.kind !== "ready") throw new Conflict(checked.message);
  const fresh = newPass(ctx.config.sessionSecret, checked.linkId!);
  const claimed = await ctx.db
    .updateTable("earlyAccessLinks")
    .set({ openedAt: ctx.clock.now().toISOString(), passHash: fresh.hash })
    .where("id", "=", checked.linkId!)
    .where("openedAt", "is", null)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new Conflict(EARLY_ACCESS_MESSAGES.used);
  return { pass: fresh.value };
}

/** The name an early-access pass is bound to a bag under (pass-bindings.ts): its link, which has one pass. */
const passKey = (linkId: number) => `early-access:${linkId}`;

/**
 * How long a claimed pass counts (decision 0036): a link opens at most `earlyMinutes` before its
 * release, and after the release its holder gets what an admitted shopper gets, `passMinutes` and
 * the hold time. A copied pass is not a way in for the rest of the drop.
 */
async function passLifeMs(ctx: AppContext, earlyMinutes: number): Promise<number> {
  const room = await cachedRoom(ctx);
  return (earlyMinutes + room.passMinutes + ctx.config.holdMinutes) * 60_000;
}

/** A genuine, unrevoked, current pass that has not run out: its link, when it was claimed and the window setting. */
async function livePass(ctx: AppContext, pass: string | null): Promise<{ linkId: number; openedAt: number; earlyMinutes: number } | null> {
  const read = readPass(ctx.config, pass);
  if (!read) return null;
  const row = await ctx.db
    .selectFrom("earlyAccessLinks")
    .select(["openedAt", "passHash"])
    .where("id", "=", read.linkId)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  if (!row?.openedAt || row.passHash !== read.hash) return null;
  const openedAt = Date.parse(row.openedAt);
  const earlyMinutes = await getEarlyMinutes(ctx);
  if (ctx.clock.now().getTime() >= openedAt + (await passLifeMs(ctx, earlyMinutes))) return null;
  return { linkId: read.linkId, openedAt, earlyMinutes };
}

/**
 * A browser's pass, checked against the database: when it was claimed (what the catalogue needs),
 * or null for a forged, unknown, revoked, superseded or run-out pass, or one another bag has bought
 * with (decision 0036; `bagId` is this browser's bag, null when it has none).
 */
export async function passOpenedAt(ctx: AppContext, pass: string | null, bagId: string | null): Promise<number | null> {
  const live = await livePass(ctx, pass);
  if (!live || !(await passFreeFor(ctx, passKey(live.linkId), bagId))) return null;
  return live.openedAt;
}

/**
 * At a purchase: binds a live pass to the bag buying with it, unless another bag has it already
 * (decision 0036). True when the pass is this bag's; false for no pass, a dead one or another bag's.
 */
export async function bindEarlyAccessPass(ctx: AppContext, pass: string | null, bagId: string): Promise<boolean> {
  const live = await livePass(ctx, pass);
  return live !== null && (await bindPassToBag(ctx, passKey(live.linkId), bagId));
}

/** The campaign's content for one recipient: the merge tag replaced by their link (escaped for HTML). */
export function withEarlyAccessLink<C extends { htmlContent: string }>(campaign: C, url: string | undefined): C {
  if (url === undefined) return campaign;
  return { ...campaign, htmlContent: campaign.htmlContent.replaceAll(EARLY_ACCESS_TAG, escapeHtml(url)) };
}

/**
 * Whether an early-access pass lets its browser past the waiting room for the drop at `dropAt`:
 * claimed (links open only within earlyMinutes of a release) for this drop, not a past one, not
 * revoked, not run out, and not another bag's. Early access is the point of the link; sending its
 * holder to the back of the line at T-0 would undo it.
 */
export async function earlyAccessSkipsLine(
  ctx: AppContext,
  pass: string | null,
  dropAt: number,
  /** This browser's bag (null: none); undefined where the bag is not judged (the node gate's pages: decision 0036). */
  bagId: string | null | undefined,
): Promise<boolean> {
  const live = await livePass(ctx, pass);
  if (!live || live.openedAt < dropAt - live.earlyMinutes * 60_000) return false;
  return bagId === undefined || passFreeFor(ctx, passKey(live.linkId), bagId);
}
