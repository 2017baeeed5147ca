import { targetOf } from "#db/client";
import { isPostgres } from "#db/engine";
import { closeWithDatabase, listenFor } from "#db/postgres";
import type { AppContext } from "#server/context";

/**
 * The counters that say which public pages may have changed (triggers in migrations 0010 and
 * 0014, inside the writing transaction; decisions 0014 and 0027): `all` moves on every setting
 * write, `list` on every product or image write that a page shows, and each product keeps the
 * `list` value of its own last such write. The page caches compare them with the ones their
 * pages were rendered at.
 */
export interface PageVersions {
  all: number;
  list: number;
  product(id: number): number;
}

export async function readPageVersions(ctx: AppContext, previous?: PageVersions & { products?: Map<number, number> }) {
  const row = await ctx.db.selectFrom("pageVersion").select(["version", "listVersion"]).where("id", "=", 1).executeTakeFirst();
  const all = row?.version ?? 0;
  const list = row?.listVersion ?? 0;
  // Every product write moves `list`: while it stands still, the products' versions do too.
  let products = previous?.list === list ? previous.products : undefined;
  if (!products) {
    const rows = await ctx.db.selectFrom("productPageVersion").select(["productId", "version"]).execute();
    products = new Map(rows.map((r) => [r.productId, r.version]));
  }
  const known = products;
  return { all, list, products: known, product: (id: number) => known.get(id) ?? 0 };
}

const PRODUCT_PAGE = /^\/store\/(\d+)$/;

/**
 * The version a cached page was rendered at: /store/{id} depends on the settings and that product,
 * /store (every product's card) on the settings and every product, the other cached pages
 * (/, /countdown, /about, /support show no product) on the settings alone.
 */
export function pageVersionOf(versions: PageVersions, pathname: string): string {
  const product = PRODUCT_PAGE.exec(pathname);
  if (product) return `${versions.all}.p${versions.product(Number(product[1]))}`;
  if (pathname === "/store") return `${versions.all}.l${versions.list}`;
  return `${versions.all}`;
}

/**
 * Calls `onMove` as soon as the page version moves, from whichever process or machine wrote: on
 * PostgreSQL the 0010 triggers `pg_notify('page_version')` at commit and a connection of this
 * process's own LISTENs (decision 0022); it also calls `onMove` each time it (re)connects, since
 * notifications sent while it was away are lost. On SQLite there is nothing to listen to (one
 * machine; the caches read the counter every 250 ms). Either way the caches keep reading the
 * counter: a notification only makes them read it now. Returns the stop.
 */
export function watchPageVersion(ctx: AppContext, onMove: () => void): () => Promise<void> {
  const target = isPostgres(ctx.db) ? targetOf(ctx.db) : null;
  if (target?.engine !== "postgres") return async () => {};
  const stop = listenFor(target.url, "page_version", onMove);
  // The listening connection ends with the database (ctx.db.destroy()), if not stopped before.
  const untie = closeWithDatabase(ctx.db, stop);
  return async () => {
    untie();
    await stop();
  };
}
