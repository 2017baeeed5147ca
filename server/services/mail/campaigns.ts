import { sql } from "kysely";
import type { Db } from "#db/client";
import type { RecipientStatus } from "#db/schema";
import {
  COMPOSE_MISSING,
  outcomeMessage,
  type CampaignProgress,
  type ComposeEmailInput,
  type SendResult,
} from "#server/contracts/admin-subscribers";
import type { AppContext } from "#server/context";
import { Conflict, Invalid, NotFound, type FieldErrors } from "#server/errors";
import { MAX_BATCH_SIZE, MailTransportError, mailerFor, type BatchMailResult } from "#server/integrations/mail";
import { campaignDocument, campaignMail, sanitizeEmailHtml } from "./campaign-mail";
import { unsubscribeUrl } from "./unsubscribe";
import { EARLY_ACCESS_TAG } from "#server/contracts/early-access";
import { campaignLinks, withEarlyAccessLink } from "#server/services/drop/early-access";
import { logError } from "#server/observability/log";
import { withDrawLink } from "#server/services/drop/draws";

export const NO_SUBSCRIBERS = "There are no subscribers to email yet.";
/** A "sending" campaign untouched this long was interrupted (the process stopped): resumable. */
const STALE_AFTER_MS = 10 * 60 * 1000;

export interface SendOptions {
  /** The store's origin ("https://shop.example"): links in the mail point there. */
  origin: string;
  /** Answer once the campaign is under way instead of when it is done (the UI polls progress). */
  background?: boolean;
}

/** Runs under way in this process, by campaign id, so a test can wait for one to end. */
const running = new Map<number, Promise<void>>();

/**
 * Mails every active subscriber: records the campaign (sanitised content, who, when) with one
 * recipient row per subscriber, then delivers it in batches. Answers the spec's `{ message }`.
 */
export async function sendCampaign(
  ctx: AppContext,
  input: ComposeEmailInput,
  adminUserId: number,
  options: SendOptions,
): Promise<SendResult> {
  const { id, total } = await createCampaign(ctx, input, adminUserId);
  return deliver(ctx, id, options, `Sending to ${total.toLocaleString("en-US")} subscriber${total === 1 ? "" : "s"}`);
}

/** Sends what a campaign has not delivered yet: pending and failed recipients, never a sent one. */
export async function resumeCampaign(ctx: AppContext, campaignId: number, options: SendOptions): Promise<SendResult> {
  return deliver(ctx, campaignId, options, "Resuming the send");
}

async function deliver(ctx: AppContext, id: number, options: SendOptions, startedMessage: string): Promise<SendResult> {
  await claim(ctx, id);
  const run = runCampaign(ctx, id, options.origin).finally(() => running.delete(id));
  running.set(id, run);
  if (options.background) {
    run.catch((error: unknown) => logError(`Campaign ${id} stopped`, error));
    return { message: startedMessage, campaignId: id, status: "sending" };
  }
  await run;
  return outcome(await getCampaign(ctx, id));
}

/** Test hook: resolves when the campaign's current run in this process ends. */
export async function campaignSettled(campaignId: number): Promise<void> {
  await running.get(campaignId)?.catch(() => undefined);
}

/**
 * The message as subscribers will get it (sanitised, in its frame, with the footer), for the
 * compose preview: what the admin approves is what is sent.
 */
export function previewCampaign(ctx: AppContext, input: { subject: string; htmlContent: string }): { html: string } {
  return { html: campaignDocument(ctx, input.subject.trim(), sanitizeEmailHtml(input.htmlContent), "#unsubscribe") };
}

export async function createCampaign(
  ctx: AppContext,
  input: ComposeEmailInput,
  adminUserId: number,
): Promise<{ id: number; total: number }> {
  const subject = input.subject.trim();
  const htmlContent = sanitizeEmailHtml(input.htmlContent);
  const errors: FieldErrors = {};
  if (!subject) errors.subject = [COMPOSE_MISSING];
  // Content that was nothing but a script is empty once sanitised: nothing to send.
  if (!htmlContent) errors.htmlContent = [COMPOSE_MISSING];
  if (Object.keys(errors).length) throw new Invalid(COMPOSE_MISSING, errors);

  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now().toISOString();
    const { id } = await trx
      .insertInto("emailCampaigns")
      .values({ subject, htmlContent, createdBy: adminUserId, createdAt: now, updatedAt: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The list as it is now, in one statement: people who sign up later are not in this send.
    const inserted = await trx
      .insertInto("campaignRecipients")
      .columns(["campaignId", "subscriberId", "email"])
      .expression((eb) =>
        eb
          .selectFrom("subscribers")
          .select([sql<number>`${id}`.as("campaignId"), "id", "email"])
          .where("unsubscribedAt", "is", null)
          .orderBy("id"),
      )
      .executeTakeFirst();
    const total = Number(inserted.numInsertedOrUpdatedRows ?? 0n);
    if (total === 0) throw new Conflict(NO_SUBSCRIBERS);
    await trx.updateTable("emailCampaigns").set({ total }).where("id", "=", id).execute();
    return { id, total };
  });
}

/**
 * Takes the campaign for one run with a conditional update, so two admins (or a double click)
 * can never run it twice at once. A run that died with its process is taken over once stale.
 */
async function claim(ctx: AppContext, id: number): Promise<void> {
  const now = ctx.clock.now();
  const staleBefore = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
  const taken = await ctx.db
    .updateTable("emailCampaigns")
    .set({ status: "sending", updatedAt: now.toISOString(), lastError: null })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([eb("status", "in", ["queued", "partial"]), eb.and([eb("status", "=", "sending"), eb("updatedAt", "<", staleBefore)])]),
    )
    .executeTakeFirst();
  if (taken.numUpdatedRows > 0n) return;
  const row = await ctx.db.selectFrom("emailCampaigns").select("status").where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound("Campaign not found.");
  if (row.status === "sent") throw new Conflict("This email has already been sent to every subscriber.");
  throw new Conflict("This email is being sent right now.");
}

async function runCampaign(ctx: AppContext, id: number, origin: string): Promise<void> {
  // {{draw_link}}: the open draw's page, the same for everyone (decision 0047).
  const campaign = await withDrawLink(
    ctx,
    await ctx.db.selectFrom("emailCampaigns").select(["id", "subject", "htmlContent"]).where("id", "=", id).executeTakeFirstOrThrow(),
    origin,
  );
  const mailer = mailerFor(ctx);
  let lastError: string | null = null;
  // A cursor, so recipients who fail in this run are not retried within it (a resume does that).
  let after = 0;
  try {
    for (;;) {
      // Let the requests that queued meanwhile (the progress polls) have the database first:
      // the driver's lock is not fair, and a tight loop of batches would starve them.
      await new Promise((resolve) => setImmediate(resolve));
      await skipUnsubscribed(ctx.db, id);
      const batch = await ctx.db
        .selectFrom("campaignRecipients")
        .select(["id", "subscriberId", "email"])
        .where("campaignId", "=", id)
        .where("status", "in", ["pending", "failed"])
        .where("id", ">", after)
        .orderBy("id")
        .limit(MAX_BATCH_SIZE)
        .execute();
      if (batch.length === 0) break;
      after = batch.at(-1)!.id;
      // {{early_access_link}}: each recipient's own link, made as their batch is sent (decision 0020).
      const links = campaign.htmlContent.includes(EARLY_ACCESS_TAG) ? await campaignLinks(ctx, id, batch, origin) : null;
      const mails = batch.map((r) =>
        campaignMail(
          ctx,
          withEarlyAccessLink(campaign, links?.get(r.subscriberId)),
          r,
          unsubscribeUrl(ctx, origin, r.subscriberId),
          origin,
        ),
      );
      try {
        await mailer.sendBatch(mails, (db, results) => settle(ctx, db, id, batch, results));
      } catch (error) {
        // The call as a whole failed: this batch and the rest stay pending for a resume.
        if (!(error instanceof MailTransportError)) throw error;
        lastError = error.message;
        break;
      }
    }
  } finally {
    await finish(ctx, id, lastError);
  }
}

/** Someone who unsubscribed after the send began is not mailed, and is not a failure either. */
async function skipUnsubscribed(db: Db, id: number) {
  await db
    .updateTable("campaignRecipients")
    .set({ status: "skipped", error: "Unsubscribed before delivery" })
    .where("campaignId", "=", id)
    .where("status", "in", ["pending", "failed"])
    .where("subscriberId", "in", (eb) => eb.selectFrom("subscribers").select("id").where("unsubscribedAt", "is not", null))
    .execute();
}

/** Marks each recipient by its message's result, in the transaction that records the messages. */
async function settle(ctx: AppContext, db: Db, id: number, batch: { id: number }[], results: BatchMailResult[]) {
  const now = ctx.clock.now().toISOString();
  for (const [i, result] of results.entries()) {
    const failed = result.status === "failed";
    await db
      .updateTable("campaignRecipients")
      .set({
        status: failed ? "failed" : "sent",
        error: failed ? (result.error ?? "Not sent") : null,
        providerMessageId: result.providerMessageId ?? null,
        sentAt: failed ? null : now,
      })
      .where("id", "=", batch[i]!.id)
      .execute();
  }
  const counts = await countsOf(db, [id]);
  const c = counts.get(id) ?? emptyCounts();
  await db.updateTable("emailCampaigns").set({ sentCount: c.sent, failedCount: c.failed, updatedAt: now }).where("id", "=", id).execute();
}

async function finish(ctx: AppContext, id: number, lastError: string | null) {
  const c = (await countsOf(ctx.db, [id])).get(id) ?? emptyCounts();
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .updateTable("emailCampaigns")
    .set({
      status: c.pending + c.failed === 0 ? "sent" : "partial",
      sentCount: c.sent,
      failedCount: c.failed,
      lastError,
      updatedAt: now,
      finishedAt: now,
    })
    .where("id", "=", id)
    .execute();
}

type Counts = Record<RecipientStatus, number>;
const emptyCounts = (): Counts => ({ pending: 0, sent: 0, failed: 0, skipped: 0 });

async function countsOf(db: Db, ids: number[]): Promise<Map<number, Counts>> {
  const map = new Map<number, Counts>();
  if (ids.length === 0) return map;
  const rows = await db
    .selectFrom("campaignRecipients")
    .select((eb) => ["campaignId", "status", eb.fn.countAll<number>().as("n")])
    .where("campaignId", "in", ids)
    .groupBy(["campaignId", "status"])
    .execute();
  for (const row of rows) {
    const counts = map.get(row.campaignId) ?? emptyCounts();
    counts[row.status] = Number(row.n);
    map.set(row.campaignId, counts);
  }
  return map;
}

function campaignQuery(db: Db) {
  return db
    .selectFrom("emailCampaigns as c")
    .leftJoin("users as u", "u.id", "c.createdBy")
    .select(["c.id", "c.subject", "c.status", "c.total", "c.createdAt", "c.finishedAt", "c.lastError", "u.username as createdBy"]);
}

type CampaignRow = Awaited<ReturnType<ReturnType<typeof campaignQuery>["executeTakeFirstOrThrow"]>>;

function progressOf(row: CampaignRow, c: Counts): CampaignProgress {
  return { ...row, sent: c.sent, failed: c.failed, skipped: c.skipped, pending: c.pending };
}

/** A campaign and how far it got, read live from its recipients. */
export async function getCampaign(ctx: AppContext, id: number): Promise<CampaignProgress> {
  const row = await campaignQuery(ctx.db).where("c.id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound("Campaign not found.");
  return progressOf(row, (await countsOf(ctx.db, [id])).get(id) ?? emptyCounts());
}

/** The latest sends, newest first: the record of what went out, and any left to resume. */
export async function listCampaigns(ctx: AppContext, limit = 5): Promise<CampaignProgress[]> {
  const rows = await campaignQuery(ctx.db).orderBy("c.id", "desc").limit(limit).execute();
  const counts = await countsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => progressOf(row, counts.get(row.id) ?? emptyCounts()));
}

/** The spec's `{ message }` for a finished run. */
export function outcome(p: CampaignProgress): SendResult {
  return { message: outcomeMessage(p), campaignId: p.id, status: p.status };
}
