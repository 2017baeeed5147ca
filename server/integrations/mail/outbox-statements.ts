import { sql, type Selectable } from "kysely";
import { compiledOnce } from "#db/compiled-query";
import type { MailMessagesTable } from "#db/schema";

// The outbox's statements (index.ts), kept compiled: every paid order's confirmation runs them.

/** A message's row as it is written: every column but the id, none left out. */
export type MailRow = Omit<Selectable<MailMessagesTable>, "id">;

/**
 * Two sends of one key at once (a lease that ran out under a slow send, say): the one already kept
 * is the answer, rather than the unique index failing the second caller after the fact. The
 * index's own predicate, word for word (migration 0031): SQLite matches a partial index only so.
 */
export const insertMail = compiledOnce((db, $: MailRow) =>
  db
    .insertInto("mailMessages")
    .values({
      stream: $.stream,
      toAddress: $.toAddress,
      fromAddress: $.fromAddress,
      replyTo: $.replyTo,
      subject: $.subject,
      htmlBody: $.htmlBody,
      textBody: $.textBody,
      tag: $.tag,
      status: $.status,
      providerMessageId: $.providerMessageId,
      error: $.error,
      headers: $.headers,
      idempotencyKey: $.idempotencyKey,
      createdAt: $.createdAt,
    })
    .onConflict((oc) =>
      oc
        .column("idempotencyKey")
        .where(sql<boolean>`idempotency_key IS NOT NULL AND status <> 'failed'`)
        .doNothing(),
    )
    .returning("id"),
);

/**
 * The status compared as text, not a parameter: SQLite prepares a statement again at each run
 * when a bound value decides whether the partial index on the key applies.
 */
export const keptUnder = compiledOnce((db, $: { key: string }) =>
  db
    .selectFrom("mailMessages")
    .select(["id", "status"])
    .where("idempotencyKey", "=", $.key)
    .where(sql<boolean>`status <> 'failed'`),
);
