import { sql } from "kysely";
import type { MailStream } from "#db/schema";
import type { AppContext } from "#server/context";

export const OUTBOX_PAGE_SIZE = 50;

export interface OutboxQuery {
  /** Matches the recipient or the subject. */
  q?: string;
  stream?: MailStream;
  page?: number;
}

/**
 * The mail the store recorded, newest first: in local mode the outbox people read instead of an
 * inbox; with Postmark, the delivery record. Order confirmations, support mail and campaigns alike.
 */
export async function listOutbox(ctx: AppContext, query: OutboxQuery) {
  let base = ctx.db.selectFrom("mailMessages");
  const q = query.q?.trim();
  if (q) {
    // LIKE wildcards in what the admin typed are matched literally. lower() on both sides: SQLite's
    // LIKE ignores ASCII case, PostgreSQL's does not (and lower() under the columns' byte-order
    // collation folds ASCII only there too, as SQLite's does).
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(to_address) LIKE lower(${pattern}) ESCAPE '\\'`,
        sql<boolean>`lower(subject) LIKE lower(${pattern}) ESCAPE '\\'`,
      ]),
    );
  }
  if (query.stream) base = base.where("stream", "=", query.stream);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow()).total);
  const pages = Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE));
  // A page past the last (a stale link, a number typed in) is the last; what is no page at all
  // (?page=Infinity, 1e300) is the first: its offset was an error on PostgreSQL, a 500.
  const asked = Math.floor(query.page ?? 1);
  const page = Number.isFinite(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  const messages = await base
    .select(["id", "stream", "toAddress", "subject", "status", "createdAt", "tag"])
    .orderBy("id", "desc")
    .limit(OUTBOX_PAGE_SIZE)
    .offset((page - 1) * OUTBOX_PAGE_SIZE)
    .execute();
  return { messages, total, page, pages };
}

export async function getOutboxMessage(ctx: AppContext, id: number) {
  const row = await ctx.db.selectFrom("mailMessages").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  let headers: Record<string, string> = {};
  try {
    headers = row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {};
  } catch {
    // A malformed record still shows its message.
  }
  return { ...row, headers };
}
