// A page whose loader fails shows the store's own error page with a way back, never a blank one.
// The 404s run on the shared store; the failing loaders on a store of this file's own, whose
// tables are renamed under it while a test runs (as a broken disk or a bad migration would leave
// it) and renamed back when that test ends.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before } from "node:test";
import Database from "better-sqlite3";
import type { Page } from "playwright-core";
import { describe, expectVisible, MODES, newPage, onCleanup, signIn, test } from "./browser";
import { uniqueToken } from "./support/data";
import { root, startStore, type StoreProcess } from "./support/store-process";

/** The error page: the site's header and footer around the heading, a message and one way back. */
async function expectErrorPage(
  page: Page,
  { heading, text, link, href }: { heading: string; text: string; link: string; href: string },
): Promise<void> {
  await expectVisible(page.getByRole("navigation", { name: "Main" }));
  await expectVisible(page.getByRole("heading", { name: heading }));
  await expectVisible(page.getByText(text));
  const back = page.getByRole("link", { name: link });
  await expectVisible(back);
  assert.equal(await back.getAttribute("href"), href);
  assert.match(await page.locator("footer").innerText(), /© \d{4}/);
}

for (const mode of MODES) {
  describe(`not found ${mode.name}`, () => {
    test("a product that does not exist answers 404 with Page not found and a way back to the store", async () => {
      const { page } = await newPage(mode);
      const response = await page.goto("/store/999999");
      assert.equal(response?.status(), 404);
      await expectErrorPage(page, { heading: "Page not found", text: "Product not found.", link: "Browse the Store", href: "/store" });
    });

    test("an unknown path answers 404 with the 404 page and a way home", async () => {
      const { page } = await newPage(mode);
      const response = await page.goto("/no/such/page");
      assert.equal(response?.status(), 404);
      await expectErrorPage(page, { heading: "404 Page Not Found", text: "does not exist", link: "Back to Home", href: "/" });
    });
  });
}

describe("a loader that fails", () => {
  const admin = { username: "e2e-broken-admin", password: "e2e-broken-password" };
  const dataDir = path.join(root, "tests/.tmp", `e2e-broken-db-${uniqueToken()}`);
  const databaseFile = path.join(dataDir, "store.db");
  let store: StoreProcess | undefined;
  let baseURL: string;

  before(async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    store = await startStore({
      name: "e2e-broken",
      env: { DATABASE_URL: databaseFile, ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password, LOGIN_ATTEMPTS_PER_IP: "1000" },
    });
    baseURL = store.baseUrl;
  });

  after(async () => {
    await store?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const renameTable = (from: string, to: string) => {
    const db = new Database(databaseFile);
    try {
      db.exec(`ALTER TABLE ${from} RENAME TO ${to}`);
    } finally {
      db.close();
    }
  };

  /** Pulls a table out from under the running store, so the next query that needs it throws; it comes back when the test ends. */
  const breakTable = (table: string) => {
    renameTable(table, `${table}_gone`);
    onCleanup(async () => renameTable(`${table}_gone`, table));
  };

  test("the store page shows the branded error with the spec's words and a way to try again", async () => {
    breakTable("products");
    for (const mode of MODES) {
      const { page } = await newPage({ ...mode, baseURL });
      const response = await page.goto("/store");
      assert.equal(response?.status(), 500, mode.name);
      await expectErrorPage(page, {
        heading: "Something went wrong",
        text: "Sorry, we couldn't load the products. Please try again later.",
        link: "Try again",
        href: "/store",
      });
    }
  });

  test("an admin tab shows it inside the dashboard, with the tabs kept and a way back to /admin", async () => {
    breakTable("orders");
    for (const mode of MODES) {
      const { page } = await newPage({ ...mode, baseURL });
      await signIn(page, admin);
      await page.waitForURL((url) => url.pathname === "/admin");
      const response = await page.goto("/admin/orders");
      assert.equal(response?.status(), 500, mode.name);
      await expectVisible(page.getByRole("heading", { name: "Admin Dashboard", level: 1 }));
      await expectVisible(page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Subscribers" }));
      await expectVisible(page.getByRole("heading", { name: "Something went wrong", level: 2 }));
      await expectErrorPage(page, {
        heading: "Something went wrong",
        text: "We hit a snag on our side.",
        link: "Back to Admin",
        href: "/admin",
      });
    }
  });
});
