import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import {
  subscriberPageSchema,
  type ExportResult,
  type SubscriberList,
  type SubscriberPageQuery,
  type SubscriberRow,
} from "#server/contracts/admin-subscribers";
import { isPostgres } from "#db/engine";
import type { AppContext } from "#server/context";
import { parseInput } from "#server/services/store/admin-settings";
import { launchTemplate } from "./email-template";
import { formatStoreTime, storeToday } from "#server/contracts/store-time";

/** Unsubscribed addresses are kept (never mailed) but not listed. */
const activeSubscribers = (db: AppContext["db"]) => db.selectFrom("subscribers").where("unsubscribedAt", "is", null);

/**
 * One page of the active list, newest first (subscribedAt desc, id desc), with `count` every
 * active subscriber and `pages` how many pages that fills. The query is checked here with
 * `subscriberPageSchema` (page ≥ 1, pageSize 1..500; defaults page 1 of 100), so a bad value is
 * the same Invalid (400) through every door. A page past the end is empty, with the real count.
 */
export async function listSubscribers(ctx: AppContext, query: SubscriberPageQuery = {}): Promise<SubscriberList> {
  const { page, pageSize } = parseInput(subscriberPageSchema, query);
  // One read transaction: the count and the rows come from the same snapshot, so a sign-up
  // landing between the two queries cannot shift the numbering. On PostgreSQL that takes
  // REPEATABLE READ (READ COMMITTED gives each statement its own snapshot); a transaction that
  // only reads never fails to serialise there.
  const transaction = isPostgres(ctx.db) ? ctx.db.transaction().setIsolationLevel("repeatable read") : ctx.db.transaction();
  return transaction.execute(async (trx) => {
    const { total } = await activeSubscribers(trx)
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow();
    const count = Number(total);
    const pages = Math.max(1, Math.ceil(count / pageSize));
    const offset = (page - 1) * pageSize;
    // Past the end there is nothing to read (and no huge OFFSET to hand SQLite).
    const subscribers: SubscriberRow[] =
      offset >= count
        ? []
        : await activeSubscribers(trx)
            .select(["id", "email", "subscribedAt"])
            .orderBy("subscribedAt", "desc")
            .orderBy("id", "desc")
            .limit(pageSize)
            .offset(offset)
            .execute();
    return { subscribers, count, page, pageSize, pages };
  });
}

/** Every active subscriber, newest first: what the export writes, never what a screen polls. */
async function allSubscribers(ctx: AppContext): Promise<SubscriberRow[]> {
  return activeSubscribers(ctx.db).select(["id", "email", "subscribedAt"]).orderBy("subscribedAt", "desc").orderBy("id", "desc").execute();
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return that hides
 * one) as a formula: `=HYPERLINK(...)` in an address would be live in the admin's Excel. Such a
 * cell gets a leading apostrophe, which spreadsheets show as text and never evaluate (OWASP).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/*
 * The screen shows New York time; so does the file, and its header says so (it gave UTC under a
 * bare "Subscribed On" before). With the offset, each time reads the same in any spreadsheet.
 */
export const EXPORT_HEADER = ["#", "Email", "Subscribed On (New York time)"] as const;
const EXPORT_TIME = "yyyy-MM-dd HH:mm:ss xxx";
// Names the export route accepts: nothing else, so no path ever leaves the exports folder.
const EXPORT_FILE = /^subscribers-(\d{4}-\d{2}-\d{2})-[a-f0-9]{32}\.csv$/;
// An export holds every address: it is a download link, not an archive.
const EXPORT_TTL_MS = 60 * 60 * 1000;

const exportsDir = (ctx: AppContext) => path.join(ctx.config.dataDir, "exports");

/**
 * Writes the active list as CSV (csv-stringify quotes commas, quotes and line breaks; a BOM lets
 * Excel read UTF-8) to DATA_DIR/exports under an unguessable name, and answers where the admin
 * downloads it. Older exports are removed on the way.
 */
export async function exportSubscribers(ctx: AppContext): Promise<ExportResult> {
  const subscribers = await allSubscribers(ctx);
  const count = subscribers.length;
  const dir = exportsDir(ctx);
  await fs.promises.mkdir(dir, { recursive: true });
  await removeOldExports(dir);

  const day = storeToday(ctx.clock.now());
  const stored = `subscribers-${day}-${crypto.randomBytes(16).toString("hex")}.csv`;
  const rows = subscribers.map((s, i) => [String(i + 1), s.email, formatStoreTime(s.subscribedAt, EXPORT_TIME)].map(neutraliseCell));
  const partial = path.join(dir, `.${stored}.part`);
  await pipeline(
    Readable.from([[...EXPORT_HEADER], ...rows]),
    stringify({ bom: true, record_delimiter: "windows" }),
    fs.createWriteStream(partial, { mode: 0o600 }),
  );
  // Renamed only when complete, so a download never sees half a file.
  await fs.promises.rename(partial, path.join(dir, stored));
  return { count, filename: `subscribers-${day}.csv`, downloadUrl: `/api/admin/exports/${stored}` };
}

async function removeOldExports(dir: string) {
  // File times are the machine's, so they are compared with the machine's clock.
  const cutoff = Date.now() - EXPORT_TTL_MS;
  for (const name of await fs.promises.readdir(dir)) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) await fs.promises.rm(file, { force: true });
  }
}

/** The file behind a download link and the name to save it as, or null for any other name. */
export function exportFile(ctx: AppContext, name: string | undefined): { file: string; filename: string } | null {
  const match = EXPORT_FILE.exec(name ?? "");
  if (!match) return null;
  return { file: path.join(exportsDir(ctx), match[0]), filename: `subscribers-${match[1]}.csv` };
}

/** GET /api/admin/email-template: `{ template }`. */
export async function getEmailTemplate(ctx: AppContext): Promise<{ template: string }> {
  return { template: await launchTemplate(ctx) };
}
