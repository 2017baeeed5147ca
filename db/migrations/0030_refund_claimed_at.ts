import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * When the admin's refund claimed the order (refund_status pending). A claim left by a process that
 * died is taken over once it is this old (refunds.ts STALE_REFUND_CLAIM_MS). It was judged by
 * `updated_at`, which every status change also moves: marking the order shipped meanwhile put the
 * takeover off by another ten minutes, and made the claim's own give-back miss. Null for a claim
 * made before this column: such a claim is judged by `updated_at` as before.
 */
export const refundClaimedAt: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`ALTER TABLE orders ADD COLUMN refund_claimed_at TEXT`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE orders DROP COLUMN refund_claimed_at`.execute(db);
  },
};
