import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * A pass bound to the bag it first bought with (issue 21, decision 0036): `pass` names the pass
 * (a waiting-room pass by its drop and subject, an early-access pass by its link), `bag_id` the
 * signed `cart` cookie's id it was first used with. Written once, with an insert that does nothing
 * when the pass is already bound, so of two browsers using one pass at once exactly one wins, on
 * every worker and instance. At most one row per place and per early-access link: nothing a
 * stranger can grow on their own.
 */
export const passBindings: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE pass_bindings (
      pass TEXT PRIMARY KEY,
      bag_id TEXT NOT NULL,
      bound_at TEXT NOT NULL
    ) WITHOUT ROWID`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE pass_bindings`.execute(db);
  },
};
