// Per-product page versions (decision 0027) on a real database: the page cache in front of a
// stand-in renderer that prints what the database says, versions read through the store's own
// reader and page mapping. A hold on one product re-renders its page and the list, not the other
// products' pages; stock a page shows is never more than a second old.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NOBODY } from "#server/contracts/visitor";
import { pageCache } from "#server/http/cache/page-cache";
import { addToCart } from "#server/services/cart/cart";
import { processOrder } from "#server/services/checkout/checkout";
import { pageVersionOf, readPageVersions } from "#server/services/store/page-version";
import { mockServer } from "../mocks/server";
import { createTestContext } from "../setup/context";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
const customer = {
  email: "buyer@example.com",
  name: "Buyer One",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};
let clock = 0;
const renders: string[] = [];
let base = "";
let server: http.Server;
let last: Awaited<ReturnType<typeof readPageVersions>> | undefined;

async function stockText(pathname: string): Promise<string> {
  const id = /^\/store\/(\d+)$/.exec(pathname)?.[1];
  const rows = await ctx.db
    .selectFrom("products")
    .select(["id", "inventory"])
    .$if(id !== undefined, (q) => q.where("id", "=", Number(id)))
    .orderBy("id")
    .execute();
  return rows.map((row) => `product ${row.id}: ${row.inventory} left`).join("; ");
}

beforeAll(async () => {
  const serve = pageCache({
    match: (pathname) => /^\/(store|store\/\d+|about)$/.test(pathname),
    now: () => clock,
    // Read every time: the test moves the clock, not the 250 ms reader.
    versionEveryMs: 0,
    readVersion: async () => {
      const versions = (last = await readPageVersions(ctx, last));
      return (pathname: string) => pageVersionOf(versions, pathname);
    },
    render: async (request) => {
      const { pathname } = new URL(request.url);
      renders.push(pathname);
      const body = pathname === "/about" ? "About us" : await stockText(pathname);
      return new Response(`<html><body><main>${body}</main></body></html>`, { headers: { "Content-Type": "text/html" } });
    },
    readVisitor: async () => ({ visitor: NOBODY, setCookies: [] }),
    fragments: () => ({}),
  });
  server = http.createServer((req, res) => serve(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  mockServer.use(mswHttp.all(`${base}/*`, () => passthrough()));
});

const page = async (path: string) => (await fetch(base + path)).text();
/** Reads each page and says which ones were rendered for it (not served from memory). */
async function renderedBy(paths: string[]): Promise<string[]> {
  renders.length = 0;
  for (const path of paths) await page(path);
  return [...renders];
}

let sessions = 0;
async function hold(productId: number) {
  const sessionId = `versions-${++sessions}`;
  await addToCart(ctx, sessionId, productId, 1);
  await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
}

describe("per-product page versions", () => {
  it("re-renders a held product's page and the list at once, and leaves the other products' pages cached", async () => {
    const a = await addProduct(ctx, { name: "Drop A", inventory: 5 });
    const b = await addProduct(ctx, { name: "Drop B", inventory: 5 });
    const pages = [`/store/${a}`, `/store/${b}`, "/store", "/about"];
    await renderedBy(pages);
    expect(await renderedBy(pages)).toEqual([]);

    await hold(a);
    // Within the same second: A's page and the list show 4 left; B's page and /about were kept.
    expect(await renderedBy(pages)).toEqual([`/store/${a}`, "/store"]);
    expect(await page(`/store/${a}`)).toContain(`product ${a}: 4 left`);
    expect(await page("/store")).toContain(`product ${a}: 4 left`);
    expect(await page(`/store/${b}`)).toContain(`product ${b}: 5 left`);

    // An edit another process makes (B's price) moves B's page and the list; a setting moves every page.
    await ctx.db.updateTable("products").set({ priceCents: 5000, updatedAt: "2026-06-01T12:00:01.000Z" }).where("id", "=", b).execute();
    expect(await renderedBy(pages)).toEqual([`/store/${b}`, "/store"]);
    await ctx.db
      .insertInto("appSettings")
      .values({ key: "homepage_tagline", value: "Now." })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "Now." }))
      .execute();
    expect((await renderedBy(pages)).sort()).toEqual([...pages].sort());
  });

  it("leaves a stock movement no page shows (above 10 left) to the pages' one-second life", async () => {
    const a = await addProduct(ctx, { name: "Deep Stock", inventory: 50 });
    const b = await addProduct(ctx, { name: "Other", inventory: 50 });
    const pages = [`/store/${a}`, `/store/${b}`, "/store"];
    await renderedBy(pages);
    await hold(a);
    expect(await renderedBy(pages)).toEqual([]);
    // One second after their render the pages are rendered again, and show it.
    clock += 1000;
    expect(await renderedBy(pages)).toEqual(pages);
    expect(await page(`/store/${a}`)).toContain(`product ${a}: 49 left`);
  });
});
