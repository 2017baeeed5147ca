import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import type { Db } from "./client";

/** Where a value given at each run goes in a query compiled once (a parameter, never SQL text). */
class Slot {
  constructor(readonly name: string) {}
}

/** The `$` a query's builder gets: each property read is the slot of that name. */
const slots = new Proxy({} as Record<string, unknown>, {
  get: (_, name) => (typeof name === "string" ? new Slot(name) : undefined),
});

export interface CompiledOnce<Args, Row> {
  /** Every row. */
  all(db: Db, args: Args): Promise<Row[]>;
  /** The first row, as Kysely's `executeTakeFirst`. */
  first(db: Db, args: Args): Promise<Row | undefined>;
  /** The driver's whole answer, for writes (`numAffectedRows`, `insertId`). */
  run(db: Db, args: Args): Promise<QueryResult<Row>>;
}

/**
 * A query whose shape never changes, built and compiled once per dialect and then run with new
 * values. Through the builder, every run builds the query's tree, has the CamelCasePlugin rewrite
 * it and compiles it again: about 20 µs of a one-row read's 25 (docs/perf.md, issue 24). The
 * shopper's hot path runs the same few dozen shapes over and over, so those are kept compiled.
 *
 * `build` gets the database and `$`, whose properties stand for the values given at each run:
 * `compiledOnce((db, $: { id: number }) => db.selectFrom("products").selectAll().where("id", "=", $.id))`.
 * A slot may stand only where the builder takes a value (a comparison, an insert or update value,
 * a limit), never for a list (`in`) or for anything that changes the SQL: that shape is not one
 * query. The results still pass the plugins (camelCase keys), as every Kysely query's do.
 */
export function compiledOnce<Args extends Record<string, unknown>, Row>(
  build: (db: Db, $: Args) => Compilable<Row>,
): CompiledOnce<Args, Row> {
  // Keyed by the dialect's adapter, which a transaction shares with its database: SQLite and
  // PostgreSQL compile to different SQL, and a test may open both in one process.
  const compiled = new WeakMap<object, CompiledQuery<Row>>();

  const compiledFor = (db: Db): CompiledQuery<Row> => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      query = build(db, slots as Args).compile();
      compiled.set(adapter, query);
    }
    return query;
  };

  const run = async (db: Db, args: Args): Promise<QueryResult<Row>> => {
    const query = compiledFor(db);
    const parameters = query.parameters.map((parameter) => {
      if (!(parameter instanceof Slot)) return parameter;
      const value = args[parameter.name];
      // undefined would reach the driver as a missing binding, or worse as NULL: a caller's mistake.
      if (value === undefined) throw new Error(`compiledOnce: no value for $.${parameter.name}.`);
      return value;
    });
    return db.executeQuery<Row>({ ...query, parameters });
  };

  return {
    run,
    all: async (db, args) => (await run(db, args)).rows,
    first: async (db, args) => (await run(db, args)).rows[0],
  };
}
