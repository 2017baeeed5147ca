// (b) The rush: every shopper goes through a drop the way a browser would (store, bag, product page,
// checkout, rates, order, payment with the test card), `concurrency` shoppers at a time. A 409 when
// adding to the bag or placing the order is the store saying "sold out": intended. Anything else
// that is not the step's success is an error.
import { createClient, jsonOf, textOf } from "./http-client.mjs";
import { percentile } from "./stats.mjs";

export const STEPS = [
  "GET /store",
  "POST /api/cart",
  "GET /store/:id",
  "GET /checkout",
  "POST /api/shipping/calculate",
  "POST /api/process-order",
  "POST /api/local-payments/confirm",
];

class SoldOut extends Error {}

// What a desktop Chrome sends (`--profile browser`, the default): the store records page views for
// browsers, not for a bare client, so a rush without it costs the store less than real shoppers do.
const BROWSER_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** The headers a shopper of this profile sends with every request (Cookie and Origin aside). */
export function profileHeaders(profile, method) {
  if (profile !== "browser") return {};
  return {
    "User-Agent": BROWSER_UA,
    "Accept-Encoding": "br, gzip",
    "Accept-Language": "en-US,en;q=0.9",
    Accept: method === "GET" ? PAGE_ACCEPT : "application/json",
  };
}

/** A browser's cookies between requests (a cleared or expired one is dropped). */
export function cookieJar() {
  const cookies = new Map();
  return {
    take(response) {
      for (const line of response.headers["set-cookie"] ?? []) {
        const [pair] = line.split(";");
        const at = pair.indexOf("=");
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (value && !/max-age=0\b/i.test(line)) cookies.set(name, value);
        else cookies.delete(name);
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
  };
}

/**
 * `bases`: one store's address, or several instances of the store on one database. Over several,
 * `balance` says how the load generator stands in for the load balancer: "request" sends each
 * request to the next instance in turn (a non-sticky balancer: a shopper's journey crosses
 * instances, which works because sessions, bags and holds live in the database); "shopper" keeps
 * each shopper on one instance for the whole journey (a sticky balancer), shoppers dealt round-robin.
 */
export async function rush(bases, { productId, shoppers, concurrency, deadline, balance = "request", profile = "browser" }) {
  bases = [bases].flat();
  // The same number of sockets as with one store, shared out, so the crowd is the same size.
  const clients = bases.map((base) => createClient(base, { sockets: Math.max(1, Math.ceil(concurrency / bases.length)) }));
  const served = bases.map(() => 0);
  let turn = 0;
  const latencies = Object.fromEntries(STEPS.map((step) => [step, []]));
  const outcome = { paid: 0, soldOut: 0, errors: 0, notRun: 0 };
  const errorKinds = new Map();

  async function shop(n) {
    const jar = cookieJar();
    const stuck = n % bases.length;
    const step = async (index, method, path, body, ok) => {
      const name = STEPS[index];
      const at = balance === "shopper" ? stuck : turn++ % bases.length;
      served[at]++;
      const headers = { ...profileHeaders(profile, method), Cookie: jar.header() };
      // Each instance is reached at its own address here; behind a balancer they share one origin.
      if (method !== "GET") headers.Origin = bases[at];
      const start = performance.now();
      let response;
      try {
        response = await clients[at].request(method, path, { headers, body });
      } catch (error) {
        throw Object.assign(new Error(error.message), { kind: `${name}: ${error.code ?? "network error"}` });
      }
      latencies[name].push(performance.now() - start);
      jar.take(response);
      if (response.status === 409 && (index === 1 || index === 5)) throw new SoldOut();
      if (!ok(response.status)) {
        throw Object.assign(new Error(textOf(response).slice(0, 200)), { kind: `${name}: ${response.status}` });
      }
      return response;
    };
    const is =
      (...statuses) =>
      (status) =>
        statuses.includes(status);

    await step(0, "GET", "/store", undefined, is(200));
    await step(1, "POST", "/api/cart", { productId, quantity: 1 }, is(200, 201));
    await step(2, "GET", `/store/${productId}`, undefined, is(200));
    await step(3, "GET", "/checkout", undefined, is(200));
    const address = { street: `${100 + (n % 900)} Market St`, city: "Austin", state: "TX", zipCode: "78701", country: "US" };
    const rates = jsonOf(await step(4, "POST", "/api/shipping/calculate", { address }, is(200)));
    if (!rates.length) throw Object.assign(new Error("no shipping rate"), { kind: `${STEPS[4]}: no rates` });
    const customerInfo = { ...address, email: `shopper${n}@bench.example`, name: `Shopper ${n}`, phone: "" };
    const order = jsonOf(await step(5, "POST", "/api/process-order", { customerInfo, shippingMethod: rates[0].key }, is(201)));
    const paid = jsonOf(
      await step(
        6,
        "POST",
        "/api/local-payments/confirm",
        { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" },
        is(200),
      ),
    );
    if (paid.status !== "paid") throw Object.assign(new Error(JSON.stringify(paid)), { kind: `${STEPS[6]}: ${paid.status}` });
  }

  let next = 0;
  const worker = async () => {
    while (next < shoppers) {
      if (Date.now() >= deadline) {
        outcome.notRun = shoppers - next;
        next = shoppers;
        return;
      }
      const n = next++;
      try {
        await shop(n);
        outcome.paid++;
      } catch (error) {
        if (error instanceof SoldOut) {
          outcome.soldOut++;
          continue;
        }
        outcome.errors++;
        const kind = error.kind ?? `unexpected: ${error.message}`;
        const seen = errorKinds.get(kind) ?? { count: 0, sample: error.message };
        seen.count++;
        errorKinds.set(kind, seen);
      }
    }
  };

  const start = performance.now();
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, shoppers) }, worker));
  } finally {
    for (const client of clients) client.close();
  }
  const seconds = (performance.now() - start) / 1000;
  const finished = outcome.paid + outcome.soldOut + outcome.errors;
  return {
    seconds,
    shoppersPerSecond: finished / seconds,
    outcome,
    errorKinds: [...errorKinds].map(([kind, { count, sample }]) => ({ kind, count, sample })),
    // Requests sent to each instance, in the order of `bases`.
    served,
    steps: STEPS.map((step) => ({
      step,
      requests: latencies[step].length,
      p50: percentile(latencies[step], 50),
      p99: percentile(latencies[step], 99),
    })),
  };
}

// A paid order whose reservation ran out is refunded and cancelled: it sold nothing.
const SOLD = `SELECT COALESCE(SUM(i.quantity), 0) AS paid_units, COUNT(DISTINCT o.id) AS paid_orders
                FROM order_items i JOIN orders o ON o.id = i.order_id
               WHERE i.product_id = $1 AND o.paid_at IS NOT NULL AND o.status <> 'cancelled'`;
const INVENTORY = "SELECT inventory FROM products WHERE id = $1";

/**
 * Paid units of the product against its stock, read from the store's database: an SQLite file
 * (read-only; a bare path is one too) or PostgreSQL (`{ engine: "postgres", url }`).
 */
export async function soldInDatabase(database, productId, units) {
  if (typeof database === "string") database = { engine: "sqlite", file: database };
  let sold, inventory;
  if (database.engine === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      [sold] = (await client.query(SOLD, [productId])).rows;
      [{ inventory }] = (await client.query(INVENTORY, [productId])).rows;
    } finally {
      await client.end();
    }
  } else {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(database.file, { readonly: true, fileMustExist: true });
    try {
      // better-sqlite3 binds $1 by name only: positional ? instead.
      const positional = (text) => text.replace("$1", "?");
      sold = db.prepare(positional(SOLD)).get(productId);
      ({ inventory } = db.prepare(positional(INVENTORY)).get(productId));
    } finally {
      db.close();
    }
  }
  // pg answers sums and counts (bigint) as text.
  const paidUnits = Number(sold.paid_units);
  const paidOrders = Number(sold.paid_orders);
  return { paidUnits, paidOrders, left: inventory, oversold: Math.max(0, paidUnits - units) + Math.max(0, -inventory) };
}

/**
 * Waits (up to `timeoutMs`) until no paid order is still owed its e-mail or label, reading the
 * store's database while it runs (SQLite: WAL lets a reader in; PostgreSQL: one client). Returns
 * the seconds waited, or null when orders were still owed at the time bound.
 */
export async function fulfilmentSettled(database, timeoutMs = 60_000) {
  if (typeof database === "string") database = { engine: "sqlite", file: database };
  const OWED = "SELECT COUNT(*) AS n FROM orders WHERE paid_at IS NOT NULL AND fulfilled_at IS NULL";
  let owed, close;
  if (database.engine === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    owed = async () => Number((await client.query(OWED)).rows[0].n);
    close = () => client.end();
  } else {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(database.file, { readonly: true, fileMustExist: true });
    const statement = db.prepare(OWED);
    owed = async () => statement.get().n;
    close = async () => db.close();
  }
  const start = performance.now();
  try {
    for (;;) {
      if ((await owed()) === 0) return (performance.now() - start) / 1000;
      if (performance.now() - start > timeoutMs) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await close();
  }
}
