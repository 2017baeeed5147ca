// Issue 15 part 4: every page sends a Content-Security-Policy with a fresh nonce, and a walk through
// the whole store in Chromium meets no violation (decision 0028). Violations are recorded from the
// documents' `securitypolicyviolation` events (every frame) and from the console (`problems`).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { before } from "node:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, BASE_URL, describe, expectVisible, fillCheckoutDetails, newPage, signIn, test, type TestPage } from "./browser";
import { adminApi, createProduct, placeOrder, uniqueEmail, uniqueName } from "./support/data";

const TMP = path.resolve(import.meta.dirname, "../.tmp/e2e-csp");
let imageFile = "";

before(async () => {
  fs.mkdirSync(TMP, { recursive: true });
  imageFile = path.join(TMP, "front.png");
  await sharp({ create: { width: 600, height: 700, channels: 3, background: "#1f2a44" } })
    .png()
    .toFile(imageFile);
});

/** A page whose every frame reports its CSP violations into `violations`. */
async function watchedPage(options: Parameters<typeof newPage>[0] = {}): Promise<TestPage & { violations: string[] }> {
  const opened = await newPage(options);
  const violations: string[] = [];
  await opened.context.exposeBinding("__cspViolation", ({ frame }, text: string) => {
    violations.push(`${frame.url()}: ${text}`);
  });
  await opened.context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation(
        `${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber}) ${event.sample}`,
      );
    });
  });
  return { ...opened, violations };
}

/**
 * Opens `url` and checks its policy. A page the browser already holds is revalidated (304): that
 * answer carries no policy, and the browser keeps the one that came with its copy's nonces.
 */
async function visit(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  assert.ok(response, `no answer for ${url}`);
  assert.equal(response.status(), 200, `${url} answers ${response.status()}`);
  const headers = await response.allHeaders();
  const revalidated = headers["x-page-cache"] === "HIT" && !("content-length" in headers);
  if (!revalidated) assert.match(headers["content-security-policy"] ?? "", POLICY, url);
  await page.waitForLoadState("networkidle");
}

const POLICY =
  /^default-src 'self'; script-src 'nonce-[A-Za-z0-9+/]{24}' 'strict-dynamic' 'self'; .*object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'; report-uri \/api\/csp-report; report-to csp$/;

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  // Events fire asynchronously after the load; give the last ones a moment to arrive.
  await page.waitForTimeout(100);
}

async function hydrated(page: Page) {
  await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

describe("Content-Security-Policy in Chromium", () => {
  test("the recorder itself sees a blocked inline handler (so a clean walk means something)", async () => {
    const { page, violations, problems } = await watchedPage();
    await visit(page, "/about");
    const reported = page.waitForRequest((request) => request.url().endsWith("/api/csp-report"), { timeout: 5_000 }).catch(() => null);
    // What an injected attribute would do; the store's own scripts never use inline handlers.
    await page.evaluate(() => {
      const button = document.createElement("button");
      button.setAttribute("onclick", "document.title = 'injected'");
      document.body.append(button);
      button.click();
    });
    await settle(page);
    assert.notEqual(await page.title(), "injected");
    assert.equal(violations.length, 1, violations.join("\n"));
    assert.match(violations[0]!, /script-src-attr blocked inline/);
    assert.ok(
      problems.some((p) => p.includes("Content Security Policy")),
      `the console says so too: ${problems.join("\n")}`,
    );
    // The browser posts the report to the store (Chromium sends report-to reports when it batches them).
    const request = await reported;
    if (request) assert.equal((await request.response())?.status(), 204);
  });

  test("a fresh nonce on every answer, cached pages included, on every script and module preload", async () => {
    const { context } = await watchedPage();
    for (const url of ["/store", "/about", "/cart", "/admin/login"]) {
      const seen = new Set<string>();
      for (const encoding of ["gzip", "br", "identity", "gzip"]) {
        const response = await context.request.get(url, { headers: { "Accept-Encoding": encoding } });
        assert.equal(response.status(), 200);
        const nonce = /'nonce-([A-Za-z0-9+/]{24})'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
        assert.ok(nonce, `${url} (${encoding}) has a nonce`);
        seen.add(nonce);
        const html = await response.text();
        const scripts = [...html.matchAll(/<script(?! type="application\/json")[^>]*>/g)].map((m) => m[0]);
        const preloads = [...html.matchAll(/<link rel="modulepreload(?:-later)?"[^>]*>/g)].map((m) => m[0]);
        assert.ok(scripts.length >= 3 && preloads.length >= 1, `${url}: ${scripts.length} scripts, ${preloads.length} preloads`);
        for (const tag of [...scripts, ...preloads]) assert.ok(tag.includes(`nonce="${nonce}"`), `${url} (${encoding}): ${tag}`);
      }
      assert.equal(seen.size, 4, `${url}: a new nonce for each answer`);
    }
  });

  test("the storefront walk: landing, countdown with the admin's HTML, store, product, bag, checkout paid with the test card", async () => {
    const api = await adminApi();
    const product: AdminProduct = await createProduct(api, {
      name: uniqueName("E2E CSP Tee"),
      price: 30,
      inventory: 5,
      availableColors: ["Black"],
    });
    const previousText = ((await (await api.get("/api/countdown-text")).json()) as { text: string }).text;
    const adminHtml = `<b>Soon</b>, <a href="https://example.com/look">the look</a><script>document.title='x'</script><img src=x onerror="document.title='x'">`;
    assert.equal((await api.post("/api/admin/countdown-text", { data: { text: adminHtml } })).status(), 200);
    try {
      const { page, violations, problems } = await watchedPage();
      for (const url of ["/", "/countdown", "/about", "/support", "/auth", "/waiting-room"]) await visit(page, url);
      await visit(page, "/countdown");
      await expectVisible(page.locator(".countdown-text b").getByText("Soon"));

      await visit(page, "/store");
      await page.getByTestId("product-card").filter({ hasText: product.name }).click();
      await page.waitForURL(/\/store\/\d+$/);
      await hydrated(page);
      await page.getByRole("button", { name: "Add To Bag" }).click();
      await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
      await visit(page, "/cart");
      await visit(page, "/checkout");
      await hydrated(page);
      await fillCheckoutDetails(page);
      await expectVisible(page.getByTestId("shipping-rate"));
      await page.getByRole("button", { name: /^Process Order - / }).click();
      await expectVisible(page.getByTestId("payment-form"));
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByLabel("Expiry").fill("12 / 34");
      await page.getByLabel("CVC").fill("123");
      await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
      await expectVisible(page.getByTestId("payment-success").getByText("Payment Successful!"));
      await settle(page);

      // An early-access link's page.
      const email = uniqueEmail("csp");
      assert.equal((await api.post("/api/subscribe", { data: { email } })).status(), 201);
      const link = await api.post("/api/admin/early-access", { data: { email } });
      const { url } = (await link.json()) as { url: string };
      await visit(page, new URL(url, BASE_URL).pathname);
      await settle(page);
      assert.deepEqual(violations, []);
      assert.deepEqual(problems, []);
    } finally {
      await api.post("/api/admin/countdown-text", { data: { text: previousText } });
    }
  });

  test("the admin walk: sign in, every section, a product with an uploaded image, an e-mail preview, an order", async () => {
    const api = await adminApi();
    const product = await createProduct(api, { name: uniqueName("E2E CSP Admin Tee"), availableColors: ["Black"] });
    const { orderNumber } = await placeOrder(product.id);
    const { page, violations, problems } = await watchedPage();
    await visit(page, "/admin/login");
    await signIn(page, ADMIN);
    await page.waitForURL((u) => u.pathname === "/admin");
    await settle(page);
    const sections = page.getByRole("navigation", { name: "Admin sections" });
    for (const label of ["Subscribers", "Email", "Products", "Orders", "Drop", "Drop reports", "App Settings", "Account", "Dashboard"]) {
      await sections.getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL((u) => u.pathname.startsWith("/admin"));
      await settle(page);
    }
    // The same pages loaded afresh, each with its own nonce.
    for (const url of [
      "/admin",
      "/admin/drops",
      "/admin/subscribers",
      "/admin/email",
      "/admin/outbox",
      "/admin/orders",
      "/admin/drop",
      "/admin/app-settings",
      "/admin/settings",
    ])
      await visit(page, url);

    // An image uploaded through the product editor, shown as the browser previews it.
    await visit(page, `/admin/products?tab=form&id=${product.id}`);
    await page.locator("#product-images-input").setInputFiles([imageFile]);
    await page.getByRole("button", { name: /^Upload Images/ }).click();
    await page.getByTestId("saved-image").first().waitFor({ timeout: 15_000 });
    await settle(page);

    // An order's detail, in its dialog (Radix: a scroll lock that inserts a <style>).
    await visit(page, "/admin/orders");
    await page.getByRole("button", { name: `View order ${orderNumber}` }).click();
    await expectVisible(page.getByRole("dialog", { name: `Order ${orderNumber}` }));
    await settle(page);
    await page.keyboard.press("Escape");

    // The e-mail preview: the template's inline-styled HTML in a sandboxed srcdoc frame, which
    // inherits the page's policy.
    await visit(page, "/admin/email");
    await page.getByRole("tab", { name: "Load Template" }).click();
    await page.getByRole("button", { name: "Load Template" }).click();
    await page.getByLabel("Subject").waitFor();
    await page.getByRole("button", { name: "Continue to Preview" }).click();
    await expectVisible(page.frameLocator('iframe[title="Email preview"]').getByRole("heading", { name: "The drop is almost here" }));
    await settle(page);
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
  });
});
