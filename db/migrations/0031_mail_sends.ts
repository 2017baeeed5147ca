import { sql, type Kysely, type Migration } from "kysely";
import { runStatements, SQLITE_NOW } from "./dialect";

/**
 * Decision 0063: a message sent under an idempotency key (the order confirmation, the order status
 * e-mails) goes out once, even when the database goes away around the send.
 * - `mail_sends`: the key, claimed before Postmark is called; `attempted_at` is the last call. A
 *   claim with no sent message under its key is a try whose outcome may be lost: the next try asks
 *   Postmark for the key first.
 * - `mail_messages.idempotency_key`: the key a recorded message was sent under. At most one stored
 *   or sent message per key; failed tries may be many. A column and a table of their own, since a
 *   `sending` status on mail_messages would mean rebuilding its CHECK on SQLite.
 */
export const mailSends: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`ALTER TABLE mail_messages ADD COLUMN idempotency_key TEXT`]);
    await runStatements(db, [
      `CREATE UNIQUE INDEX mail_messages_idempotency_key ON mail_messages (idempotency_key) WHERE idempotency_key IS NOT NULL AND status <> 'failed'`,
    ]);
    await runStatements(db, [
      `CREATE TABLE mail_sends (
      idempotency_key TEXT PRIMARY KEY,
      attempted_at TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${SQLITE_NOW}
    )`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE mail_sends`.execute(db);
    await sql`DROP INDEX mail_messages_idempotency_key`.execute(db);
    await sql`ALTER TABLE mail_messages DROP COLUMN idempotency_key`.execute(db);
  },
};
