// Shared by the e2e files: Debian's Chromium driven by playwright-core, with and without JavaScript.
// Every browser context opened here belongs to the test that opened it and is closed when that test
// ends, passed or failed (see `onCleanup`). How to write a test: the note at the top of run.ts.
import { after, afterEach, before } from "node:test";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";

export { describe, test } from "./support/order";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://localhost:3000";
export const ADMIN = {
  username: process.env.E2E_ADMIN_USERNAME ?? "admin",
  password: process.env.E2E_ADMIN_PASSWORD ?? "change-me-now",
};

export interface Mode {
  name: string;
  javaScriptEnabled: boolean;
}
export const MODES: readonly Mode[] = [
  { name: "with JavaScript", javaScriptEnabled: true },
  { name: "without JavaScript", javaScriptEnabled: false },
];

export interface Credentials {
  username: string;
  password: string;
}

export interface PageOptions {
  javaScriptEnabled?: boolean;
  viewport?: { width: number; height: number };
  baseURL?: string;
  /** Host names besides the store's own that the page may reach without it counting as a problem. */
  allowHosts?: string[];
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Page errors, console errors and requests that left the machine, in the words a report needs. */
  problems: string[];
}

let browser: Browser | undefined;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
});
after(async () => {
  await browser?.close();
});

// What the running test opened or created, undone last-first when it ends (whatever its outcome).
const cleanups: (() => Promise<unknown>)[] = [];

/** Runs `fn` when the current test ends, passed or failed; later registrations run first. */
export function onCleanup(fn: () => Promise<unknown>): void {
  cleanups.push(fn);
}

afterEach(async () => {
  const failures: unknown[] = [];
  for (let fn = cleanups.pop(); fn; fn = cleanups.pop()) {
    try {
      await fn();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, "cleaning up after the test failed");
});

// The store serves its pages to visitors without cookies from a cache that may be up to a second
// old (server/http/cache/page-cache.ts). A browser opened after the test changed the catalogue waits that
// second out, so its first visit already sees the change.
const PAGE_CACHE_MS = 1_000;
let lastWriteAt = 0;

/** Notes that the test just changed what the store's pages show (support/data.ts calls it). */
export function noteStoreWrite(): void {
  lastWriteAt = Date.now();
}

/** Resolves once a cookie-less visit can no longer be served a page from before the last change. */
export async function storeCaughtUp(): Promise<void> {
  const wait = lastWriteAt + PAGE_CACHE_MS + 50 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** A fresh browser context (no cookies) for the current test, closed when the test ends. */
export async function newContext({
  javaScriptEnabled = true,
  viewport = { width: 1280, height: 800 },
  baseURL = BASE_URL,
}: PageOptions = {}): Promise<BrowserContext> {
  if (!browser) throw new Error("newContext and newPage belong inside a test (the browser starts in the file's before hook)");
  await storeCaughtUp();
  const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport });
  onCleanup(() => context.close());
  return context;
}

/** A fresh browser context (no cookies) and a page in it for the current test, closed when the test ends. */
export async function newPage({ allowHosts = [], ...options }: PageOptions = {}): Promise<TestPage> {
  const context = await newContext(options);
  const page = await context.newPage();
  if (options.javaScriptEnabled !== false) {
    // On the pages whose JavaScript starts after the first paint (decision 0031), a click before
    // hydration takes the no-JavaScript path, which the "without JavaScript" tests cover: tests with
    // JavaScript act once the page says it is live.
    const goto = page.goto.bind(page);
    page.goto = async (...args: Parameters<Page["goto"]>) => {
      const response = await goto(...args);
      // A test that asks for less than the load (to look at the page before it) gets just that.
      const early = ["commit", "domcontentloaded"].includes(args[1]?.waitUntil ?? "load");
      if (!early && /^text\/html/.test(response?.headers()["content-type"] ?? "")) {
        await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 10_000 });
      }
      return response;
    };
  }
  // A thrown Response reaches "pageerror" as the bare word "Response": which answer it was goes to
  // the log from inside the page.
  await page.addInitScript(() => {
    window.addEventListener("unhandledrejection", ({ reason }) => {
      if (reason instanceof Response) console.warn(`unhandled Response: ${reason.status} ${reason.url} ${[...reason.headers].join("; ")}`);
    });
  });
  const problems: string[] = [];
  page.on("pageerror", (error) => {
    problems.push(`page error: ${error.message}`);
    // Its message alone says little: the page and the stack go to the log for whoever looks next.
    console.error(`page error on ${page.url()}: ${error.stack ?? error.message}`);
  });
  page.on("console", (message) => {
    if (message.text().startsWith("unhandled Response:")) console.error(`on ${page.url()}: ${message.text()}`);
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  // Nothing may leave the machine: every request goes to the store itself.
  page.on("request", (request) => {
    const url = new URL(request.url());
    const local = ["localhost", "127.0.0.1", ...allowHosts].includes(url.hostname) || url.protocol === "data:" || url.protocol === "blob:";
    if (!local) {
      problems.push(`third-party request: ${request.url()}`);
    }
  });
  return { page, context, problems };
}

/** Signs in through the login form, the way a person would, and waits for the page it lands on. */
export async function signIn(page: Page, { username, password }: Credentials, path = "/admin/login"): Promise<void> {
  await page.goto(path);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Sign-in goes on by way of the login screen (?signedIn=1, decision 0011): a test that moved on
  // at once would cut that chain short and test something else.
  await page.waitForURL((url) => !LOGIN_SCREENS.includes(url.pathname), { timeout: 10_000 });
}

const LOGIN_SCREENS = ["/admin/login", "/auth"];

/** Waits (up to 5 s) for the locator to be visible; fails the test with its description if not. */
export async function expectVisible(locator: Locator, timeout = 5_000): Promise<void> {
  await locator.first().waitFor({ state: "visible", timeout });
}

/**
 * Waits until the locator is visible and its entrance animations have finished. A dialog that is
 * still rising moves under the pointer: on a loaded machine a click can press on Close and release
 * beside it, and the browser then fires no click at all.
 */
export async function expectSettled(locator: Locator, timeout = 5_000): Promise<void> {
  await expectVisible(locator, timeout);
  await locator.first().evaluate(async (element) => {
    // Looping animations elsewhere on the page (the music nudge, the equalizer) never finish.
    const finite = element.ownerDocument
      .getAnimations()
      .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Customer and address on /checkout, as a buyer types them (a New York address unless told otherwise). */
export interface Address {
  street: string;
  city: string;
  state: string;
  zipCode: string;
}

export const NEW_YORK: Address = { street: "350 5th Ave", city: "New York", state: "ny", zipCode: "10001" };

export async function fillCheckoutDetails(
  page: Page,
  { email = "e2e-buyer@example.com", name = "Eve Buyer", address = NEW_YORK }: { email?: string; name?: string; address?: Address } = {},
): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Street address").fill(address.street);
  await page.getByLabel("City").fill(address.city);
  await page.getByLabel(/^State/).fill(address.state);
  await page.getByLabel("ZIP / Postal code").fill(address.zipCode);
}
