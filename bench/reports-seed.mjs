// Seeds a store's SQLite file for the reports bench (issue 14): orders spread over the last days,
// a few refunds and subscribers, and raw events (views, bag adds, checkout views, orders,
// payments) as the store records them. One transaction, prepared statements, no services: the
// point is the volume, fast. The store's own sweeper then rolls the events up and compacts them.
import crypto from "node:crypto";
import Database from "better-sqlite3";

const HOUR = 3_600_000;
const KINDS = ["home", "store", "product", "product", "product", "cart", "countdown", "about"];

/** A small, fast, seeded random source (mulberry32), so two runs seed the same shapes. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @param {string} file the store's database (migrated)
 * @param {{ orders: number, events: number, orderDays: number, eventDays: number, now?: number, products?: number }} shape
 */
export function seedReports(file, { orders, events, orderDays, eventDays, now = Date.now(), products = 12 }) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 30000");
  const rand = random(20261125);
  const iso = (t) => new Date(t).toISOString();
  const started = performance.now();
  db.transaction(() => {
    const productIds = [];
    const addProduct = db.prepare(
      "INSERT INTO products (name, description, price_cents, inventory, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (let i = 0; i < products; i++) {
      const at = iso(now - 90 * 24 * HOUR);
      productIds.push(
        Number(
          addProduct.run(`Drop piece ${i + 1}`, "A limited piece seeded for the reports bench.", 4000 + i * 500, 1000, at, at)
            .lastInsertRowid,
        ),
      );
    }
    const addOrder = db.prepare(
      `INSERT INTO orders (session_id, customer_email, customer_name, shipping_address, subtotal_cents, total_cents, status,
        paid_at, is_test, created_at, updated_at) VALUES (?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?)`,
    );
    const addItem = db.prepare(
      "INSERT INTO order_items (order_id, product_id, product_name, product_price_cents, quantity, total_cents) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const addRefund = db.prepare(
      "INSERT INTO refunds (order_id, refund_id, amount_cents, status, created_at, processed_at) VALUES (?, ?, ?, 'succeeded', ?, ?)",
    );
    for (let i = 0; i < orders; i++) {
      const created = now - rand() * orderDays * 24 * HOUR;
      const p = Math.floor(rand() * products);
      const quantity = 1 + Math.floor(rand() * 2);
      const cents = (4000 + p * 500) * quantity;
      const paid = rand() < 0.9;
      const test = rand() < 0.05 ? 1 : 0;
      const id = Number(
        addOrder.run(
          `bench-session-${i}`,
          `buyer${i}@example.com`,
          "Bench Buyer",
          cents,
          cents,
          paid ? "processing" : "pending",
          paid ? iso(created + 60_000) : null,
          test,
          iso(created),
          iso(created),
        ).lastInsertRowid,
      );
      addItem.run(id, productIds[p], `Drop piece ${p + 1}`, 4000 + p * 500, quantity, cents);
      if (paid && rand() < 0.01) addRefund.run(id, `re_bench_${id}`, cents, iso(created + 24 * HOUR), iso(created + 24 * HOUR));
    }
    const addSubscriber = db.prepare("INSERT INTO subscribers (email, subscribed_at, unsubscribed_at) VALUES (?, ?, ?)");
    for (let i = 0; i < Math.ceil(orders / 10); i++) {
      const joined = now - rand() * orderDays * 24 * HOUR;
      addSubscriber.run(`fan${i}@example.com`, iso(joined), rand() < 0.05 ? iso(joined + rand() * (now - joined)) : null);
    }
    const addEvent = db.prepare(
      "INSERT INTO events (kind, page_kind, session_key, is_entry, product_id, order_id, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const sessions = Math.max(1, Math.floor(events / 5));
    const keyOf = (n) => crypto.createHash("sha256").update(String(n)).digest("base64url").slice(0, 22);
    const keys = Array.from({ length: Math.min(sessions, 200_000) }, (_, n) => keyOf(n));
    for (let i = 0; i < events; i++) {
      const at = iso(now - rand() * eventDays * 24 * HOUR);
      const r = rand();
      const key = keys[Math.floor(rand() * keys.length)];
      if (r < 0.7) {
        const cookieless = rand() < 0.3;
        const kind = KINDS[Math.floor(rand() * KINDS.length)];
        const product = kind === "product" ? productIds[Math.floor(rand() * products)] : null;
        addEvent.run("view", kind, cookieless ? null : key, cookieless && rand() < 0.4 ? 1 : 0, product, null, at);
      } else if (r < 0.85) addEvent.run("bag_add", null, key, 0, productIds[Math.floor(rand() * products)], null, at);
      else if (r < 0.93) addEvent.run("checkout_view", null, key, 0, null, null, at);
      else if (r < 0.97) addEvent.run("order", null, key, 0, null, i, at);
      else addEvent.run("payment", null, null, 0, null, i, at);
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { seconds };
}
