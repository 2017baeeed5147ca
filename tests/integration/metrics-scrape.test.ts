// GET /metrics on a built store with two workers (decision 0048): 404 without the token, the
// workers' metrics added up with it and on METRICS_PORT, `promtool check metrics` passes on a
// scrape taken mid-rush, and the counters move by exactly what the rush did.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { unitsOf } from "../setup/books";
import { freePort } from "../setup/built-store";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { promtoolCheck, sampleSum } from "../setup/prometheus-text";
import { shopOnce, type Sent } from "../setup/rush";

const TOKEN = "metrics-test-token-0123456789";
let metricsPort = 0;
const built = builtStoreForFile("metrics", async () => {
  metricsPort = await freePort();
  return { CHECKOUTS_PER_IP: "100000", METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) };
});

const scrape = async (authorization = `Bearer ${TOKEN}`) => {
  const response = await fetch(`${built.store.baseUrl}/metrics`, { headers: { Authorization: authorization } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

async function newProduct(inventory: number): Promise<number> {
  const { id } = await built.db
    .insertInto("products")
    .values({ name: `Drop ${crypto.randomUUID().slice(0, 6)}`, description: "Limited", priceCents: 9000, inventory })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

describe("GET /metrics", () => {
  it("is the store's own 404 without the token, with a wrong one, or with another scheme", async () => {
    const missing = await fetch(`${built.store.baseUrl}/no-such-page`);
    const headerSets: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong-token-0123456789" },
      { Authorization: `Basic ${TOKEN}` },
      { Authorization: TOKEN },
      { Authorization: `Bearer ${TOKEN}x` },
    ];
    for (const headers of headerSets) {
      const response = await fetch(`${built.store.baseUrl}/metrics`, { headers });
      expect(response.status).toBe(404);
      // The page a missing page gets: nothing tells the door is there.
      expect(response.headers.get("content-type")).toBe(missing.headers.get("content-type"));
      const body = await response.text();
      expect(body).not.toContain("store_http_requests_total");
      expect(body).toContain("<title>");
    }
  }, 60_000);

  const SNAPSHOT_WAIT_MS = 1_100;

  it("adds both workers up, passes promtool mid-rush, and moves its counters by what the rush did", async () => {
    const stock = 12;
    const productId = await newProduct(stock);
    const before = await scrape();
    const sent: Sent[] = [];
    let n = 0;
    const crowd = Promise.all(
      Array.from({ length: 8 }, async () => {
        const outcomes: string[] = [];
        while (n < 40) outcomes.push(await shopOnce(built.store.baseUrl, productId, n++, sent));
        return outcomes;
      }),
    );
    // Mid-rush: some units sold, shoppers still buying.
    const deadline = Date.now() + 120_000;
    while ((await unitsOf(built.db, productId)).sold < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    // Each worker reads the database's gauges at most once a second: past that, a fresh reading.
    await new Promise((resolve) => setTimeout(resolve, SNAPSHOT_WAIT_MS));
    const during = await scrape();
    const outcomes = (await crowd).flat();
    expect(outcomes.filter((o) => o !== "paid" && o !== "sold out")).toEqual([]);
    const paid = outcomes.filter((o) => o === "paid").length;
    expect(paid).toBe(stock);

    const check = promtoolCheck(during);
    expect(check.output).toBe("");
    expect(check.status).toBe(0);
    expect(
      sampleSum(during, "store_drop_units", { state: "sold" }) - sampleSum(before, "store_drop_units", { state: "sold" }),
    ).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, SNAPSHOT_WAIT_MS));
    const after = await scrape();
    expect(promtoolCheck(after).status).toBe(0);
    const moved = (name: string, labels: Record<string, string> = {}) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
    // Every request the shoppers sent, by status, counted once by whichever worker answered it.
    for (const status of new Set(sent.map((request) => request.status))) {
      const count = sent.filter((request) => request.status === status).length;
      expect(moved("store_http_requests_total", { kind: "api", method: "POST", status: String(status) }), `POST ${status}`).toBe(count);
      expect(moved("store_http_request_duration_seconds_count", { kind: "api", method: "POST", status: String(status) })).toBe(count);
    }
    const placed = sent.filter((request) => request.path === "/api/process-order" && request.status === 201).length;
    expect(moved("store_process_order_total", { outcome: "placed" })).toBe(placed);
    expect(moved("store_process_order_total", { outcome: "sold_out" })).toBe(
      sent.filter((request) => request.path === "/api/process-order" && request.status === 409).length,
    );
    expect(moved("store_payments_confirmed_total")).toBe(paid);
    expect(moved("store_drop_units", { state: "sold" })).toBe(paid);
    expect(sampleSum(after, "store_drop_units", { state: "held" })).toBe(0);
    // The write lanes (decision 0065): nothing left waiting once the rush is over, nothing refused.
    expect(after).toMatch(/^store_writes_waiting 0$/m);
    expect(after).toMatch(/^store_writes_refused_total 0$/m);
    // Both workers answered: the sum counts more than either would alone (pids differ per answer).
    expect(sampleSum(after, "store_worker_restarts_total")).toBe(0);
    expect(sampleSum(after, "process_cpu_seconds_total")).toBeGreaterThan(0);
  }, 300_000);

  it("is served without a token on METRICS_PORT, by the primary, with the same counters", async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(promtoolCheck(text).status).toBe(0);
    expect(sampleSum(text, "store_payments_confirmed_total")).toBe(sampleSum(await scrape(), "store_payments_confirmed_total"));
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  }, 60_000);
});
