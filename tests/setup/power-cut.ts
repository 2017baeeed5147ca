import { sql } from "kysely";
import { TEST_ENGINE, type TestContext } from "./context";

/**
 * The power cut: from now on, `when` (an SQL condition on NEW) makes that write to `table` fail,
 * as if the process had died before it. Returns the restart, which takes it away. On PostgreSQL,
 * `sqlState` (such as 57P01, a server restart) makes the failure look like the database going away.
 */
export async function powerCut(
  c: TestContext,
  table: string,
  when: string,
  message = "power cut",
  sqlState?: string,
): Promise<() => Promise<void>> {
  const name = `power_cut_${table}`;
  if (TEST_ENGINE === "postgres") {
    await sql
      .raw(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF ${when} THEN RAISE EXCEPTION '${message}'${sqlState ? ` USING ERRCODE = '${sqlState}'` : ""}; END IF; RETURN NEW; END $$`,
      )
      .execute(c.db);
    await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`).execute(c.db);
    return async () => {
      await sql.raw(`DROP TRIGGER ${name} ON ${table}`).execute(c.db);
      await sql.raw(`DROP FUNCTION ${name}()`).execute(c.db);
    };
  }
  for (const op of ["INSERT", "UPDATE"]) {
    await sql
      .raw(`CREATE TRIGGER ${name}_${op} BEFORE ${op} ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, '${message}'); END`)
      .execute(c.db);
  }
  return async () => {
    for (const op of ["INSERT", "UPDATE"]) await sql.raw(`DROP TRIGGER ${name}_${op}`).execute(c.db);
  };
}
