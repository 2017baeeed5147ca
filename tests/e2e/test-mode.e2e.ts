// Test mode (no Stripe keys) cannot be missed or deployed by accident: every page says so, with
// and without JavaScript, and server.js refuses a real deployment (an https PUBLIC_URL) without
// keys unless PAYMENTS=test asks for test mode on purpose.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ADMIN, describe, expectVisible, MODES, newPage, onCleanup, signIn, test } from "./browser";
import { uniqueToken } from "./support/data";
import { root, startStore, type StoreProcess } from "./support/store-process";

const NOTICE = "Test mode: no card is charged.";
// Whatever the shell running the tests has set, these stores start from no payment settings.
const NO_PAYMENT_ENV = { STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "", STRIPE_WEBHOOK_SECRET: "", PAYMENTS: "", PUBLIC_URL: "" };

const banner = (page: Page) => page.getByRole("status").filter({ hasText: NOTICE });

async function expectBanner(page: Page): Promise<void> {
  await expectVisible(banner(page));
  assert.equal(await banner(page).count(), 1);
  assert.equal((await banner(page).innerText()).trim(), NOTICE);
}

interface RefusedStart {
  code: number | null;
  stdout: string;
  stderr: string;
  dataDirCreated: boolean;
}

/** Runs server.js to its end (it must refuse to start): its exit code and what it printed. */
function refusedStart(env: Record<string, string>): Promise<RefusedStart> {
  const dataDir = path.join(root, "tests/.tmp", `e2e-refused-${uniqueToken()}`);
  const child = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ...NO_PAYMENT_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server.js did not exit within 30 s:\n${stdout}${stderr}`));
    }, 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, dataDirCreated: fs.existsSync(dataDir) });
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  });
}

/** A store of the test's own, stopped when the test ends (after its browsers have closed). */
async function ownStore(name: string, env: Record<string, string>): Promise<StoreProcess> {
  const store = await startStore({ name, env: { ...NO_PAYMENT_ENV, ...env } });
  onCleanup(() => store.stop());
  return store;
}

/** The messages of the store's log, one JSON object a line (issue 27); a line that is not JSON is an error. */
function logMessages(store: StoreProcess): string {
  return store
    .log()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg))
    .join("\n");
}

/** The store's log has a line with the message (stdout may trail the first answer by a moment). */
async function expectLogLine(store: StoreProcess, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!pattern.test(logMessages(store)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.match(logMessages(store), pattern);
}

function assertOneParagraph(stderr: string): void {
  assert.match(stderr, /^The store cannot start: /);
  assert.equal(stderr.trim().split("\n").length, 1, `one paragraph, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /\n\s+at /, "no stack trace");
}

describe("the test-mode banner (the shared store runs without Stripe keys)", () => {
  for (const mode of MODES) {
    test(`shows on storefront pages and admin pages ${mode.name}`, async () => {
      const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled });
      for (const pathname of ["/", "/store", "/about"]) {
        await page.goto(pathname);
        await expectBanner(page);
      }
      await page.goto("/admin/login");
      await expectBanner(page);
      await signIn(page, ADMIN);
      await page.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.startsWith("/admin/login"));
      await page.goto("/admin/orders");
      await expectVisible(page.getByRole("heading", { name: /^Orders \(\d+\)$/ }));
      await expectBanner(page);
      assert.deepEqual(problems, []);
    });
  }

  test("fits a phone's width: the banner and the page do not scroll sideways", async () => {
    const { page } = await newPage({ viewport: { width: 390, height: 844 } });
    await page.goto("/store");
    await expectBanner(page);
    const box = await banner(page).boundingBox();
    assert.ok(box && box.width <= 390 && box.height <= 48, `a slim strip, got ${JSON.stringify(box)}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  });
});

describe("server.js and the payment configuration", () => {
  test("refuses an https PUBLIC_URL without Stripe keys: exit code 1, a message naming STRIPE_SECRET_KEY and PAYMENTS=test", async () => {
    const { code, stdout, stderr, dataDirCreated } = await refusedStart({ PUBLIC_URL: "https://shop.example" });
    assert.equal(code, 1);
    assertOneParagraph(stderr);
    assert.match(stderr, /STRIPE_SECRET_KEY/);
    assert.match(stderr, /PAYMENTS=test/);
    assert.match(stderr, /https:\/\/shop\.example/);
    assert.doesNotMatch(stdout, /Store ready/);
    assert.equal(dataDirCreated, false, "refused before touching the data folder");
  });

  test("refuses half a Stripe configuration, naming the missing key", async () => {
    const onlySecret = await refusedStart({ STRIPE_SECRET_KEY: "sk_test_half" });
    assert.equal(onlySecret.code, 1);
    assertOneParagraph(onlySecret.stderr);
    assert.match(onlySecret.stderr, /STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY is not/);

    const onlyPublishable = await refusedStart({ STRIPE_PUBLISHABLE_KEY: "pk_test_half", PUBLIC_URL: "https://shop.example" });
    assert.equal(onlyPublishable.code, 1);
    assert.match(onlyPublishable.stderr, /STRIPE_PUBLISHABLE_KEY is set but STRIPE_SECRET_KEY is not/);
  });

  test("starts in test mode with PAYMENTS=test behind an https PUBLIC_URL, says so in its log and on its pages", async () => {
    const store = await ownStore("e2e-test-mode", { PUBLIC_URL: "https://shop.example", PAYMENTS: "test", SEED_ON_EMPTY: "false" });
    await expectLogLine(
      store,
      /^Payments: TEST MODE — no card is charged\. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments\.$/m,
    );
    for (const mode of MODES) {
      const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, baseURL: store.baseUrl });
      await page.goto("/about");
      await expectBanner(page);
      assert.deepEqual(problems, [], mode.name);
    }
  });

  test("shows no banner when both live Stripe keys are set", async () => {
    const store = await ownStore("e2e-stripe-mode", {
      STRIPE_SECRET_KEY: "sk_live_e2e_mode",
      STRIPE_PUBLISHABLE_KEY: "pk_live_e2e_mode",
      SEED_ON_EMPTY: "false",
    });
    await expectLogLine(store, /^Payments: Stripe, live/m);
    const { page } = await newPage({ javaScriptEnabled: false, baseURL: store.baseUrl });
    await page.goto("/about");
    await expectVisible(page.getByRole("heading", { level: 1 }));
    assert.equal(await page.getByText(NOTICE).count(), 0);
  });

  test("shows Stripe's test-mode banner on every page with Stripe test keys, and says so in its log", async () => {
    const store = await ownStore("e2e-stripe-test-mode", {
      STRIPE_SECRET_KEY: "sk_test_e2e_mode",
      STRIPE_PUBLISHABLE_KEY: "pk_test_e2e_mode",
      SEED_ON_EMPTY: "false",
    });
    await expectLogLine(store, /^Payments: Stripe TEST MODE \(test keys\) — no card is charged; orders are test orders\./m);
    const stripeNotice = "Stripe test mode: no card is charged.";
    for (const mode of MODES) {
      const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, baseURL: store.baseUrl });
      for (const pathname of ["/about", "/admin/login"]) {
        await page.goto(pathname);
        const strip = page.getByRole("status").filter({ hasText: stripeNotice });
        await expectVisible(strip);
        assert.equal((await strip.innerText()).trim(), stripeNotice);
        assert.equal(await page.getByText(NOTICE, { exact: true }).count(), 0);
      }
      assert.deepEqual(problems, [], mode.name);
    }
  });
});
