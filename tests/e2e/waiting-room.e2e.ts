// A shopper walks through the drop's waiting room in Chromium, with and without JavaScript: sent
// from /store to the line before T-0, told everyone here has an equal chance, given a number after
// the draw, told it is their turn, and let into the store to add to the bag. This file starts its
// own store: the waiting room gates the whole store in its window, which the shared store's other
// tests must never meet.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { APIRequestContext, Page } from "playwright-core";
import { describe, expectVisible, MODES, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, uniqueName } from "./support/data";
import { startStore, type StoreProcess } from "./support/store-process";

const ADMIN = { username: "e2e-line-admin", password: "e2e-line-password" };
let store: StoreProcess | undefined;
let baseURL: string;

before(async () => {
  store = await startStore({ name: "e2e-waiting-room", env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  baseURL = store.baseUrl;
});

after(() => store?.stop());

async function patchRoom(api: APIRequestContext, body: Record<string, unknown>) {
  const response = await api.patch("/api/admin/waiting-room", { data: body });
  assert.equal(response.status(), 200, await response.text());
}

/** A countdown `seconds` from now, with the line paused so the shopper can be seen waiting after T-0. */
async function dropIn(api: APIRequestContext, seconds: number): Promise<number> {
  const t0 = Date.now() + seconds * 1000;
  const response = await api.post("/api/admin/settings", { data: { key: "countdown_date", value: new Date(t0).toISOString() } });
  assert.equal(response.status(), 200, await response.text());
  await patchRoom(api, { paused: true, admitPerMinute: 600 });
  return t0;
}

/** The line's text as a screen reader gets it (CSS upper-cases the heading; textContent does not). */
async function lineText(page: Page): Promise<string> {
  return ((await page.getByTestId("line-status").textContent()) ?? "").replace(/\s+/g, " ").trim();
}

async function waitForLine(page: Page, pattern: RegExp, timeout: number): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await lineText(page).catch(() => "");
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) assert.fail(`the waiting room says "${text}", expected ${pattern}`);
    await page.waitForTimeout(250);
  }
}

for (const mode of MODES) {
  describe(`the waiting room ${mode.name}`, () => {
    test(
      "a shopper is sent to the line before T-0, gets a number after the draw, and enters the store on their turn",
      { timeout: 120_000 },
      async () => {
        const api = await adminApi({ baseURL, ...ADMIN });
        const tee = await createProduct(api, { name: uniqueName("E2E Line Tee"), price: 40, inventory: 10 });
        const t0 = await dropIn(api, 12);
        try {
          const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, baseURL });
          await page.goto("/store");
          assert.equal(new URL(page.url()).pathname, "/waiting-room");
          await expectVisible(page.getByRole("heading", { name: `The Legacy drop` }));
          const line = page.getByTestId("line-status");
          await expectVisible(line.getByText("The drop starts in", { exact: true }));
          await expectVisible(line.getByTestId("starts-in"));
          await expectVisible(line.getByText("You're in the line.", { exact: true }));
          await expectVisible(
            line.getByText("Everyone who is here now has an equal chance: places are drawn at random when the drop starts.", {
              exact: true,
            }),
          );
          if (mode.javaScriptEnabled) await page.evaluate("window.__sameDocument = true");

          // After T-0 the draw gives the one early shopper place 1; the line is paused, so they wait.
          const waiting = await waitForLine(page, /You are number 1 in line/, Math.max(0, t0 - Date.now()) + 15_000);
          assert.match(waiting, /Nobody is ahead of you\./);
          await patchRoom(api, { paused: false });
          await waitForLine(page, /It's your turn/, 15_000);
          if (mode.javaScriptEnabled)
            assert.equal(await page.evaluate("window.__sameDocument"), true, "the page updated without reloading");

          await page.getByRole("link", { name: "Enter the store" }).click();
          await page.waitForURL("**/store");
          // A click before /store is live takes the no-JavaScript path (the other mode's test); React
          // 18 may then report its own error #345 mid-hydration ("Root did not complete", seen once in CI).
          if (mode.javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 10_000 });
          await page.getByTestId("product-card").filter({ hasText: tee.name }).click();
          await page.waitForURL(`**/store/${tee.id}`);
          if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
          await page.getByRole("button", { name: "Add To Bag" }).click();
          if (mode.javaScriptEnabled) await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
          else await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));
          assert.deepEqual(problems, []);

          if (mode.javaScriptEnabled) {
            const pass = (await page.context().cookies()).filter((cookie) => cookie.name === "waiting_room_pass");
            assert.equal(pass.length, 1);

            // The pass lapses while the bag is open: plus is refused with the line's words in the bag's
            // toast, not the error page ("Something went wrong 429", before), and the page's reload
            // takes the shopper, and the toast, to the line.
            const busy = "The drop is busy. Please join the line.";
            const refusal = () => page.locator("[data-sonner-toast][data-removed=false]").filter({ hasText: busy });
            const cartRefused = "console error: Failed to load resource: the server responded with a status of 429 (Too Many Requests)";
            await page.goto("/cart");
            await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
            await page.context().clearCookies({ name: "waiting_room_pass" });
            await page.getByRole("button", { name: `Increase quantity of ${tee.name}` }).click();
            await page.waitForURL("**/waiting-room");
            await expectVisible(page.getByTestId("line-status"));
            await expectVisible(refusal().getByText(busy, { exact: true }));
            assert.equal(await page.getByText("Something went wrong").count(), 0);
            assert.deepEqual(problems.splice(0), [cartRefused]);

            // The same from the bag's dropdown on a page outside the gate (the home page goes to the
            // store once the drop is on): the page stays, and the toast offers the line.
            await page.context().addCookies(pass);
            await page.goto("/about");
            await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
            await page.getByTestId("cart-button").click();
            const dropdown = page.getByTestId("cart-dropdown");
            await expectVisible(dropdown.getByTestId("cart-line").filter({ hasText: tee.name }));
            await page.context().clearCookies({ name: "waiting_room_pass" });
            await dropdown.getByRole("button", { name: `Remove ${tee.name}` }).click();
            await expectVisible(refusal().getByText(busy, { exact: true }));
            assert.equal(await page.getByText("Something went wrong").count(), 0);
            assert.equal(new URL(page.url()).pathname, "/about");
            await refusal().getByRole("link", { name: "Join the line" }).click();
            await page.waitForURL("**/waiting-room");
            await expectVisible(page.getByTestId("line-status"));
            assert.deepEqual(problems.splice(0), [cartRefused]);

            // The pass comes back for the product page.
            await page.context().addCookies(pass);
            await page.goto(`/store/${tee.id}`);
            await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });

            // The pass lapses while the product page is open: Add To Bag's refusal is no error page
            // ("Something went wrong 429", before), and the page's reload sends the shopper to the line.
            await page.context().clearCookies({ name: "waiting_room_pass" });
            await page.getByRole("button", { name: "Add To Bag" }).click();
            await page.waitForURL("**/waiting-room");
            await expectVisible(page.getByTestId("line-status"));
            assert.equal(await page.getByText("Something went wrong").count(), 0);
            // The refused post itself is the browser's only complaint.
            assert.deepEqual(problems.splice(0), [
              "console error: Failed to load resource: the server responded with a status of 429 (Too Many Requests)",
            ]);
          }

          // A second browser without a pass is still sent to the line (paused, so it cannot go straight in).
          await patchRoom(api, { paused: true });
          const other = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, baseURL });
          await other.page.goto(`/store/${tee.id}`);
          assert.equal(new URL(other.page.url()).pathname, "/waiting-room");
        } finally {
          await patchRoom(api, { ended: true });
        }
      },
    );
  });
}

describe("the admin's drop page", () => {
  test("shows the live line and pauses, resumes, sets the rate and ends the waiting room", { timeout: 60_000 }, async () => {
    const api = await adminApi({ baseURL, ...ADMIN });
    await dropIn(api, -60);
    try {
      await patchRoom(api, { paused: false });
      const joined = await newPage({ javaScriptEnabled: false, baseURL });
      await joined.page.goto("/waiting-room");
      const { page, problems } = await newPage({ baseURL });
      await signIn(page, ADMIN);
      await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Drop", exact: true }).click();
      await page.getByRole("heading", { name: "Waiting Room" }).waitFor();
      await expectVisible(page.getByTestId("drop-phase").getByText(/^Open: letting the line in\./));
      assert.equal(await page.getByTestId("figure-admitted").textContent(), "1");

      await page.getByRole("button", { name: "Pause" }).click();
      await expectVisible(page.getByRole("button", { name: "Resume" }));
      assert.equal(((await (await api.get("/api/admin/waiting-room")).json()) as { paused: boolean }).paused, true);
      await page.getByRole("button", { name: "Resume" }).click();
      await expectVisible(page.getByRole("button", { name: "Pause" }));

      await page.getByLabel("Shoppers let in per minute").fill("1200");
      await page.getByRole("button", { name: "Set rate" }).click();
      // The pause and resume left "Waiting room updated" toasts on screen: wait for the rate itself.
      const rate = async () => ((await (await api.get("/api/admin/waiting-room")).json()) as { admitPerMinute: number }).admitPerMinute;
      for (let tries = 0; tries < 50 && (await rate()) !== 1200; tries++) await page.waitForTimeout(100);
      assert.equal(await rate(), 1200);

      await page.getByRole("button", { name: "End the waiting room" }).click();
      await expectVisible(page.getByTestId("drop-phase").getByText(/^Ended for this drop/));
      assert.deepEqual(problems, []);
    } finally {
      await patchRoom(api, { ended: true });
    }
  });

  test("sets the room's window, a pass's length and the places per address from its settings form", { timeout: 60_000 }, async () => {
    const api = await adminApi({ baseURL, ...ADMIN });
    const read = async () => (await (await api.get("/api/admin/waiting-room")).json()) as Record<string, unknown>;
    const before = await read();
    const keep = ["enabled", "opensMinutesBefore", "closesMinutesAfter", "passMinutes", "perAddress"];
    try {
      const { page, problems } = await newPage({ baseURL, viewport: { width: 390, height: 844 } });
      await signIn(page, ADMIN);
      await page.waitForURL((url) => url.pathname === "/admin");
      await page.goto("/admin/drop");
      const form = page.getByRole("form", { name: "Settings" });
      await form.waitFor();
      await form.getByLabel("Opens, minutes before the drop").fill("45");
      await form.getByLabel("Closes, minutes after the drop").fill("90");
      await form.getByLabel("A pass lasts, minutes").fill("12");
      await form.getByLabel("Places per address").fill("500");
      // The browser itself refuses a place count below one, before anything is sent.
      await form.getByLabel("Places per address").fill("0");
      await form.getByRole("button", { name: "Save settings" }).click();
      assert.equal(await form.getByLabel("Places per address").evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow), true);
      assert.equal((await read()).perAddress, before.perAddress);
      await form.getByLabel("Places per address").fill("500");
      await form.getByRole("button", { name: "Save settings" }).click();
      const wanted = { opensMinutesBefore: 45, closesMinutesAfter: 90, passMinutes: 12, perAddress: 500, enabled: before.enabled };
      for (let tries = 0; tries < 50 && (await read()).perAddress !== 500; tries++) await page.waitForTimeout(100);
      const room = await read();
      assert.deepEqual(Object.fromEntries(keep.map((key) => [key, room[key]])), wanted);
      await expectVisible(page.getByText("at most 500 places per address."));
      assert.deepEqual(problems, []);
    } finally {
      await patchRoom(api, Object.fromEntries(keep.map((key) => [key, before[key]])));
    }
  });
});
