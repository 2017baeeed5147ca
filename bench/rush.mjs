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

export async function rush(base, { productId, shoppers, concurrency, deadline }) {
  const client = createClient(base, { sockets: concurrency });
  const latencies = Object.fromEntries(STEPS.map((step) => [step, []]));
  const outcome = { paid: 0, soldOut: 0, errors: 0, notRun: 0 };
  const errorKinds = new Map();
  const origin = base;

  async function shop(n) {
    const jar = cookieJar();
    const step = async (index, method, path, body, ok) => {
      const name = STEPS[index];
      const headers = { Cookie: jar.header() };
      if (method !== "GET") headers.Origin = origin;
      const start = performance.now();
      let response;
      try {
        response = await client.request(method, path, { headers, body });
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
    client.close();
  }
  const seconds = (performance.now() - start) / 1000;
  const finished = outcome.paid + outcome.soldOut + outcome.errors;
  return {
    seconds,
    shoppersPerSecond: finished / seconds,
    outcome,
    errorKinds: [...errorKinds].map(([kind, { count, sample }]) => ({ kind, count, sample })),
    steps: STEPS.map((step) => ({
      step,
      requests: latencies[step].length,
      p50: percentile(latencies[step], 50),
      p99: percentile(latencies[step], 99),
    })),
  };
}

/** Paid units of the product against its stock, read from the store's database file (read-only). */
export async function soldInDatabase(databaseFile, productId, units) {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    // A paid order whose reservation ran out is refunded and cancelled: it sold nothing.
    const { paidUnits, paidOrders } = db
      .prepare(
        `SELECT COALESCE(SUM(i.quantity), 0) AS paidUnits, COUNT(DISTINCT o.id) AS paidOrders
           FROM order_items i JOIN orders o ON o.id = i.order_id
          WHERE i.product_id = ? AND o.paid_at IS NOT NULL AND o.status <> 'cancelled'`,
      )
      .get(productId);
    const { inventory } = db.prepare("SELECT inventory FROM products WHERE id = ?").get(productId);
    return { paidUnits, paidOrders, left: inventory, oversold: Math.max(0, paidUnits - units) + Math.max(0, -inventory) };
  } finally {
    db.close();
  }
}

/**
 * Waits (up to `timeoutMs`) until no paid order is still owed its e-mail or label, reading the
 * store's database file while it runs (WAL lets a reader in). Returns the seconds waited, or null
 * when orders were still owed at the time bound.
 */
export async function fulfilmentSettled(databaseFile, timeoutMs = 60_000) {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  const owed = db.prepare("SELECT COUNT(*) AS n FROM orders WHERE paid_at IS NOT NULL AND fulfilled_at IS NULL");
  const start = performance.now();
  try {
    for (;;) {
      if (owed.get().n === 0) return (performance.now() - start) / 1000;
      if (performance.now() - start > timeoutMs) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    db.close();
  }
}
