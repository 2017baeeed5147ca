// /checkout and /cart on the built store (`npm start`, one worker so that every page comes from the same
// render memo): the page is rendered once per distinct bag and visitor (decision 0018), and each
// shopper still sees their own bag, their own header, and a price edited a moment ago.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { CookieJar } from "../setup/http";

const admin = { username: "memo-admin", password: crypto.randomBytes(12).toString("hex") };
const METRICS_TOKEN = crypto.randomBytes(16).toString("hex");

const built = builtStoreForFile("checkout-server", () => ({
  WEB_CONCURRENCY: "1",
  ADMIN_USERNAME: admin.username,
  ADMIN_PASSWORD: admin.password,
  ADMIN_EMAIL: "memo@example.com",
  METRICS_TOKEN,
}));

async function call(method: string, url: string, jar: CookieJar, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${built.store.baseUrl}${url}`, {
    method,
    headers: { Origin: built.store.baseUrl, Cookie: jar.header(), ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
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

/** GET pages answered so far, by who answered: Remix ("page") or the memo door ahead of Express ("memo_page"). */
async function pagesAnswered() {
  const text = await (await fetch(`${built.store.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const count = (kind: string) =>
    Number(new RegExp(`store_http_requests_total\\{kind="${kind}",method="GET",status="200"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { remix: count("page"), door: count("memo_page") };
}

/** Who answered `request` (a page GET): the difference in the counts around it. */
async function answeredBy<T>(request: () => Promise<T>): Promise<{ by: "remix" | "door"; result: T }> {
  const before = await pagesAnswered();
  const result = await request();
  // An answer is counted when node closes it, a moment after the client has read it.
  let after = await pagesAnswered();
  for (let wait = 0; wait < 40 && after.remix + after.door === before.remix + before.door; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    after = await pagesAnswered();
  }
  const remix = after.remix - before.remix;
  const door = after.door - before.door;
  expect(remix + door).toBe(1);
  return { by: remix === 1 ? "remix" : "door", result };
}

/** An answer's headers but those each answer has its own of. */
function comparableHeaders(page: Response) {
  const headers = Object.fromEntries(page.headers);
  for (const own of ["date", "x-request-id", "content-security-policy", "keep-alive", "connection"]) delete headers[own];
  return headers;
}

describe("the memo door: a kept copy answered ahead of Express and Remix (decision 0060)", () => {
  let tee: number;

  beforeAll(async () => {
    tee = await newProduct("Memo Door Tee", 44);
  });

  it("answers the second shopper with the same bag from the copy the first one's render made, with the same headers", async () => {
    const first = await answeredBy(async () => call("GET", "/checkout", await shopperWith(tee)));
    expect(first.by).toBe("remix");
    const second = await answeredBy(async () => call("GET", "/checkout", await shopperWith(tee)));
    expect(second.by).toBe("door");
    const [remixPage, doorPage] = [first.result, second.result];
    expect(doorPage.status).toBe(200);
    expect(comparableHeaders(doorPage)).toEqual(comparableHeaders(remixPage));
    expect(doorPage.headers.get("Cache-Control")).toBe("private, no-store");
    const [remixHtml, doorHtml] = [await withoutNonce(remixPage), await withoutNonce(doorPage)];
    expect(doorHtml.html).toBe(remixHtml.html);
    expect(doorHtml.nonce).not.toBe(remixHtml.nonce);
    expect(doorHtml.html).toContain("Memo Door Tee");
  });

  it("answers /cart the same way, each shopper with their own quantity", async () => {
    const jarOne = await shopperWith(tee);
    await answeredBy(() => call("GET", "/cart", jarOne));
    const one = await answeredBy(async () => call("GET", "/cart", await shopperWith(tee)));
    expect(one.by).toBe("door");
    const two = await shopperWith(tee);
    expect((await call("POST", "/api/cart", two, { productId: tee, quantity: 1 })).status).toBe(200);
    // Another bag: no copy of its page yet, so Remix renders it.
    const twoPage = await answeredBy(() => call("GET", "/cart", two));
    expect(twoPage.by).toBe("remix");
    expect((await withoutNonce(one.result)).html).toContain("1 item");
    expect((await withoutNonce(twoPage.result)).html).toContain("2 items");
  });

  it("keeps two shoppers asking at once each to their own bag", async () => {
    const teeJar = await shopperWith(tee);
    const otherJar = await shopperWith(await newProduct("Memo Door Socks", 9));
    // Both pages' copies are made first, so both answers below come from the door.
    await call("GET", "/checkout", await shopperWith(tee));
    await call("GET", "/checkout", otherJar);
    const pages = await Promise.all(
      Array.from({ length: 10 }, (_, n) => call("GET", "/checkout", n % 2 === 0 ? teeJar : otherJar).then(withoutNonce)),
    );
    pages.forEach((page, n) => {
      expect(page.html).toContain(n % 2 === 0 ? "Memo Door Tee" : "Memo Door Socks");
      expect(page.html).not.toContain(n % 2 === 0 ? "Memo Door Socks" : "Memo Door Tee");
    });
  });

  it("leaves to Remix what only Remix may answer: an empty bag's redirect, a flash, a query, a HEAD", async () => {
    await call("GET", "/checkout", await shopperWith(tee));
    // An empty bag: the page's loader redirects, and Remix sends that redirect.
    const emptied = new CookieJar();
    const empty = await call("GET", "/checkout", emptied);
    expect(empty.status).toBe(302);
    expect(empty.headers.get("Location")).toBe("/");

    const queried = await answeredBy(async () => call("GET", "/checkout?utm=1", await shopperWith(tee)));
    expect(queried.by).toBe("remix");
    expect(queried.result.status).toBe(200);

    const head = await fetch(`${built.store.baseUrl}/checkout`, { method: "HEAD", headers: { Cookie: (await shopperWith(tee)).header() } });
    expect(head.status).toBe(200);

    // The empty bag's redirect leaves a flash for the page it leads to; that page is Remix's, with its toast.
    const flashed = emptied;
    expect(flashed.header()).toMatch(/flash=/);
    expect((await call("POST", "/api/cart", flashed, { productId: tee, quantity: 1 })).status).toBe(201);
    const withToast = await answeredBy(() => call("GET", "/checkout", flashed));
    expect(withToast.by).toBe("remix");
    expect(withToast.result.status).toBe(200);
  });
});
