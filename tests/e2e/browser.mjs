// Shared by the e2e files: Debian's Chromium driven by playwright-core, with and without JavaScript.
import { after, before } from "node:test";
import { chromium } from "playwright-core";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://localhost:3000";
export const ADMIN = {
  username: process.env.E2E_ADMIN_USERNAME ?? "admin",
  password: process.env.E2E_ADMIN_PASSWORD ?? "change-me-now",
};
export const MODES = [
  { name: "with JavaScript", javaScriptEnabled: true },
  { name: "without JavaScript", javaScriptEnabled: false },
];

let browser;
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

/** A fresh browser context (no cookies) for one test. */
export async function newPage({ javaScriptEnabled = true, viewport = { width: 1280, height: 800 }, baseURL = BASE_URL, allowHosts = [] } = {}) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
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

/** Signs in through the login form, the way a person would. */
export async function signIn(page, { username, password }, path = "/admin/login") {
  await page.goto(path);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Waits (up to 5 s) for the locator to be visible; fails the test with its description if not. */
export async function expectVisible(locator, timeout = 5_000) {
  await locator.first().waitFor({ state: "visible", timeout });
}

/**
 * Waits until the locator is visible and its entrance animations have finished. A dialog that is
 * still rising moves under the pointer: on a loaded machine a click can press on Close and release
 * beside it, and the browser then fires no click at all.
 */
export async function expectSettled(locator, timeout = 5_000) {
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
export const NEW_YORK = { street: "350 5th Ave", city: "New York", state: "ny", zipCode: "10001" };

export async function fillCheckoutDetails(page, { email = "e2e-buyer@example.com", name = "Eve Buyer", address = NEW_YORK } = {}) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Street address").fill(address.street);
  await page.getByLabel("City").fill(address.city);
  await page.getByLabel(/^State/).fill(address.state);
  await page.getByLabel("ZIP / Postal code").fill(address.zipCode);
}
