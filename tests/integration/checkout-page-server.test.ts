// /checkout and /cart on the built store (`npm start`, one worker so that every page comes from the same
// render memo): the page is rendered once per distinct bag and visitor (decision 0018), and each
// shopper still sees their own bag, their own header, and a price edited a moment ago.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockServer } from "../mocks/server";
import { startBuiltStore, type BuiltStore } from "../setup/built-store";
import { builtStoreDatabase } from "../setup/built-store-database";
import { CookieJar } from "../setup/http";
import { TMP_DIR } from "../setup/paths";

const dataDir = path.join(TMP_DIR, `checkout-server-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
const admin = { username: "memo-admin", password: crypto.randomBytes(12).toString("hex") };
const database = builtStoreDatabase();
let store: BuiltStore;

beforeAll(async () => {
  // Only the store on loopback is spoken to: nothing to intercept.
  mockServer.close();
  fs.mkdirSync(dataDir, { recursive: true });
  store = await startBuiltStore({
    dataDir,
    env: {
      WEB_CONCURRENCY: "1",
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      ADMIN_EMAIL: "memo@example.com",
      ...database.env(),
    },
  });
}, 330_000);

afterAll(async () => {
  await store?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function call(method: string, url: string, jar: CookieJar, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${store.baseUrl}${url}`, {
    method,
    headers: { Origin: store.baseUrl, Cookie: jar.header(), ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    redirect: "manual",
  });
  jar.store(response);
  return response;
}

const adminJar = new CookieJar();
async function newProduct(name: string, price: number) {
  const created = await call("POST", "/api/admin/products", adminJar, {
    name,
    description: `${name}, for the memo test.`,
    price,
    inventory: 50,
    weight: 1,
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

async function shopperWith(productId: number, jar = new CookieJar()) {
  expect((await call("POST", "/api/cart", jar, { productId, quantity: 1 })).status).toBe(201);
  return jar;
}

/** The page with its nonce (checked against the answer's CSP) as "NONCE", so two answers compare. */
async function withoutNonce(page: Response) {
  const policy = page.headers.get("Content-Security-Policy") ?? "";
  const nonce = /'nonce-([A-Za-z0-9+/]{24})'/.exec(policy)?.[1];
  expect(nonce).toBeDefined();
  // Test mode: no Stripe host is allowed anywhere (security-headers-server.test.ts has Stripe's).
  expect(policy).not.toMatch(/stripe/);
  const html = await page.text();
  expect(html).toMatch(new RegExp(`<script nonce="${nonce!.replace(/[+/]/g, "\\$&")}"`));
  expect(html.match(/nonce="([^"]*)"/g)?.every((attribute) => attribute === `nonce="${nonce}"`)).toBe(true);
  return { html: html.replaceAll(nonce!, "NONCE"), nonce: nonce! };
}

async function checkoutPage(jar: CookieJar, encoding = "gzip, br") {
  const page = await call("GET", "/checkout", jar, undefined, { "Accept-Encoding": encoding });
  expect(page.status).toBe(200);
  return { ...(await withoutNonce(page)), encoding: page.headers.get("Content-Encoding") };
}

describe("the checkout and cart pages, rendered once per distinct bag", () => {
  let hoodie: number;
  let cap: number;

  beforeAll(async () => {
    expect((await call("POST", "/api/login", adminJar, admin)).status).toBe(200);
    hoodie = await newProduct("Memo Drop Hoodie", 120);
    cap = await newProduct("Memo Drop Cap", 35);
  });

  it("shows each shopper their own bag, and the admin their own header", async () => {
    const ann = await checkoutPage(await shopperWith(hoodie));
    const bob = await checkoutPage(await shopperWith(hoodie));
    const cat = await checkoutPage(await shopperWith(cap));
    const boss = await checkoutPage(await shopperWith(hoodie, adminJar));

    // Brotli: the memo keeps a brotli copy with the first nonce's place uncompressed (decision 0032).
    expect(ann.encoding).toBe("br");
    expect(bob.nonce).not.toBe(ann.nonce);
    expect(bob.html).toBe(ann.html);
    expect(ann.html).toContain("Memo Drop Hoodie");
    expect(ann.html).not.toContain(`Signed in as ${admin.username}`);
    expect(cat.html).toContain("Memo Drop Cap");
    expect(cat.html).not.toContain("Memo Drop Hoodie");
    expect(boss.html).toContain("Memo Drop Hoodie");
    expect(boss.html).toContain(`Signed in as ${admin.username}`);
  });

  it("shows a price edited a moment ago to the next shopper", async () => {
    const before = await checkoutPage(await shopperWith(cap));
    expect(before.html).toContain("$35.00");
    expect((await call("PATCH", `/api/admin/products/${cap}`, adminJar, { price: 29 })).status).toBe(200);
    const after = await checkoutPage(await shopperWith(cap));
    expect(after.html).toContain("$29.00");
    expect(after.html).not.toContain("$35.00");
  });

  it("shows /cart to each shopper with their own quantity", async () => {
    const page = async (jar: CookieJar) => {
      const answer = await call("GET", "/cart", jar);
      expect(answer.status).toBe(200);
      return (await withoutNonce(answer)).html;
    };
    const one = await page(await shopperWith(hoodie));
    expect(await page(await shopperWith(hoodie))).toBe(one);
    const twoJar = await shopperWith(hoodie);
    expect((await call("POST", "/api/cart", twoJar, { productId: hoodie, quantity: 1 })).status).toBe(200);
    const two = await page(twoJar);
    expect(one).toContain("1 item");
    expect(two).toContain("2 items");
    expect(two).not.toBe(one);
  });

  it("sends the same page compressed or not, as the browser asks", async () => {
    const jar = await shopperWith(hoodie);
    const browser = await checkoutPage(jar, "gzip, deflate, br");
    const gzip = await checkoutPage(jar, "gzip");
    const brOnly = await checkoutPage(jar, "br");
    const plain = await checkoutPage(jar, "identity");
    // Every coding from the memo's kept copy, each answer with its own nonce (decisions 0028, 0032).
    expect([browser.encoding, gzip.encoding, brOnly.encoding, plain.encoding]).toEqual(["br", "gzip", "br", null]);
    expect(gzip.html).toBe(browser.html);
    expect(brOnly.html).toBe(browser.html);
    expect(plain.html).toBe(browser.html);
    expect(new Set([browser.nonce, gzip.nonce, brOnly.nonce, plain.nonce]).size).toBe(4);
  });
});
