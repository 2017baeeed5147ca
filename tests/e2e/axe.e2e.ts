// Issue 15 part 5: axe-core finds no violation on any page, the admin's included, at a phone's and
// a desktop's width. axe's own source is injected into each page (playwright-core has no axe).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fs from "node:fs";
import { after, before } from "node:test";
import type { APIRequestContext, Page } from "playwright-core";
import { ADMIN, describe, expectVisible, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, uniqueName } from "./support/data";
import { startStore, type StoreProcess } from "./support/store-process";

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WIDTHS = [390, 1280] as const;

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe's violations on the page as it is now, one line each (rule, what, where). */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const found = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } }).then((r) => r.violations)",
  )) as AxeViolation[];
  return found.flatMap((v) => v.nodes.map((n) => `${v.id}: ${v.help} at ${n.target.join(" ")}`));
}

/**
 * Every width, after the page has settled (fonts, hydration, the dropdown code if any). With a
 * path, the page checked must be that path: a redirect (to a sign-in, say) fails the test rather
 * than have axe pass another page.
 */
async function expectNoViolations(page: Page, path: string): Promise<void> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    if (path) {
      await page.goto(path);
      const { pathname, search } = new URL(page.url());
      assert.equal(pathname + search, path, `axe was to check ${path}, but the browser is at ${page.url()}`);
    }
    await page.waitForLoadState("networkidle");
    problems.push(...(await violations(page)).map((line) => `${path || page.url()} at ${width}px: ${line}`));
  }
  assert.deepEqual(problems, []);
}

async function productOfMyOwn(api: APIRequestContext) {
  return createProduct(api, { name: uniqueName("E2E Axe Tee"), price: 30, inventory: 10, availableColors: ["Black"] });
}

async function bagWith(page: Page, productId: number) {
  await page.goto(`/store/${productId}`);
  await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
  await page.getByRole("button", { name: "Add To Bag" }).click();
  await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
}

describe("axe on the storefront", () => {
  for (const path of ["/", "/countdown", "/store", "/about", "/support", "/cart", "/waiting-room", "/auth", "/no-such-page"]) {
    test(`${path} has no violation`, async () => {
      const { page } = await newPage();
      await expectNoViolations(page, path);
    });
  }

  test("a product, the bag with a line, its dropdown and the checkout have no violation", async () => {
    const product = await productOfMyOwn(await adminApi());
    const { page } = await newPage();
    await expectNoViolations(page, `/store/${product.id}`);
    await bagWith(page, product.id);
    await expectNoViolations(page, "/cart");
    await page.goto("/store");
    await page.locator('[data-testid="cart-button"][data-hydrated]').click();
    await expectVisible(page.getByTestId("cart-dropdown"));
    assert.deepEqual(await violations(page), []);
    await expectNoViolations(page, "/checkout");
  });

  test("the terms dialog has no violation", async () => {
    const { page } = await newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Terms & Conditions" }).click();
    await expectVisible(page.getByRole("dialog", { name: "Terms & Conditions" }));
    assert.deepEqual(await violations(page), []);
  });
});

/** Signs the shared admin in and waits for the dashboard, so the next page asked for is an admin's. */
async function signedIn(page: Page) {
  await signIn(page, ADMIN);
  await page.waitForURL((url) => url.pathname === "/admin");
}

describe("axe on the admin", () => {
  test("the sign-in page has no violation", async () => {
    const { page } = await newPage();
    await expectNoViolations(page, "/admin/login");
  });

  // Every admin page on main (app/routes/admin.*.tsx); /admin is the dashboard (with the pre-drop
  // checklist while a countdown is ahead).
  for (const path of [
    "/admin",
    "/admin/drops",
    "/admin/subscribers",
    "/admin/email",
    "/admin/products",
    "/admin/orders",
    "/admin/outbox",
    "/admin/drop",
    "/admin/app-settings",
    "/admin/settings",
  ]) {
    test(`${path} has no violation`, async () => {
      const { page } = await newPage();
      await signedIn(page);
      await expectNoViolations(page, path);
    });
  }

  test("a drop report has no violation", async () => {
    const api = await adminApi();
    const drops = (await (await api.get("/api/admin/drops")).json()) as { id: number }[];
    assert.ok(drops.length > 0, "the current countdown is a drop");
    const { page } = await newPage();
    await signedIn(page);
    await expectNoViolations(page, `/admin/drops/${drops[0]!.id}`);
  });
});

describe("axe on an open waiting room", () => {
  // The room gates the whole store in its window: its own store, as waiting-room.e2e.ts does.
  const LINE_ADMIN = { username: "e2e-axe-admin", password: "e2e-axe-password" };
  let store: StoreProcess | undefined;
  before(async () => {
    store = await startStore({ name: "e2e-axe-line", env: { ADMIN_USERNAME: LINE_ADMIN.username, ADMIN_PASSWORD: LINE_ADMIN.password } });
  });
  after(() => store?.stop());

  test("the line before the drop has no violation", { timeout: 60_000 }, async () => {
    const baseURL = store!.baseUrl;
    const api = await adminApi({ baseURL, ...LINE_ADMIN });
    const soon = new Date(Date.now() + 10 * 60_000).toISOString();
    assert.equal((await api.post("/api/admin/settings", { data: { key: "countdown_date", value: soon } })).status(), 200);
    assert.equal((await api.patch("/api/admin/waiting-room", { data: { enabled: true, paused: true } })).status(), 200);
    const { page } = await newPage({ baseURL });
    await page.goto("/store");
    assert.equal(new URL(page.url()).pathname, "/waiting-room");
    await expectVisible(page.getByTestId("line-status"));
    await expectNoViolations(page, "");
  });
});
