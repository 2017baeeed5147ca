import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Every e-mail the store sends is recorded: in local mode this table is the outbox people read;
 * with Postmark it is the audit trail (provider id, or the error when sending failed).
 */
export const mailMessages: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE mail_messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      stream TEXT NOT NULL CHECK (stream IN ('outbound', 'broadcast')),
      to_address TEXT NOT NULL,
      from_address TEXT NOT NULL,
      reply_to TEXT,
      subject TEXT NOT NULL,
      html_body TEXT NOT NULL,
      text_body TEXT,
      tag TEXT,
      status TEXT NOT NULL CHECK (status IN ('stored', 'sent', 'failed')),
      provider_message_id TEXT,
      error TEXT,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
    )`,
    ]);
    await runStatements(db, [`CREATE INDEX mail_messages_created_at ON mail_messages(created_at)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE mail_messages`.execute(db);
  },
};
