import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

const NOW = "(strftime('%Y-%m-%dT%H:%M:%fZ','now'))";

/**
 * Bulk e-mail to subscribers. A campaign is the record of one send (what, when, by whom, how it
 * went); its recipients are a snapshot of the list taken when it was created, one row each, so a
 * send interrupted part-way resumes with exactly the people not yet mailed and nobody twice.
 * A recipient who unsubscribes after the send began but before their message went out is
 * "skipped": never mailed, and not counted as a failure.
 * mail_messages gains the extra headers a message carried (List-Unsubscribe), for the outbox.
 */
export const campaigns: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      `CREATE TABLE email_campaigns (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        subject TEXT NOT NULL,
        html_content TEXT NOT NULL,
        created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'partial')),
        total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
        sent_count INTEGER NOT NULL DEFAULT 0 CHECK (sent_count >= 0),
        failed_count INTEGER NOT NULL DEFAULT 0 CHECK (failed_count >= 0),
        created_at TEXT NOT NULL DEFAULT ${NOW},
        updated_at TEXT NOT NULL DEFAULT ${NOW},
        finished_at TEXT,
        last_error TEXT
      )`,
      `CREATE INDEX email_campaigns_created_at ON email_campaigns(created_at)`,
      `CREATE TABLE campaign_recipients (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        campaign_id INTEGER NOT NULL REFERENCES email_campaigns(id) ON DELETE CASCADE,
        subscriber_id INTEGER NOT NULL REFERENCES subscribers(id) ON DELETE CASCADE,
        email TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
        error TEXT,
        provider_message_id TEXT,
        sent_at TEXT,
        UNIQUE (campaign_id, subscriber_id)
      )`,
      `CREATE INDEX campaign_recipients_status ON campaign_recipients(campaign_id, status)`,
      `ALTER TABLE mail_messages ADD COLUMN headers TEXT`,
    ];
    await runStatements(db, statements);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE mail_messages DROP COLUMN headers`.execute(db);
    await sql`DROP TABLE IF EXISTS campaign_recipients`.execute(db);
    await sql`DROP TABLE IF EXISTS email_campaigns`.execute(db);
  },
};
