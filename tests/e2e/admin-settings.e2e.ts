// App Settings and Account tabs in the browser, with JavaScript (the upload, the toasts and the date
// picker need it) and, for the countdown form, without (the browser's own date input).
// All e2e files share one store: every setting is put back afterwards, and the password is changed
// on an admin made for that test.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { format } from "date-fns";
import { formatInTimeZone } from "date-fns-tz";
import {
  ADMIN,
  type Credentials,
  describe,
  expectSettled,
  expectVisible,
  newPage,
  noteStoreWrite,
  type PageOptions,
  signIn,
  test,
} from "./browser";
import { createAdmin } from "./support/data";

const NEW_YORK = "America/New_York";
const MINUTE = 60_000;
const CLIP = path.resolve(import.meta.dirname, "../../public/media/background.mp4");

async function signedInAdmin(options?: PageOptions, admin: Credentials = ADMIN) {
  const session = await newPage(options);
  await signIn(session.page, admin);
  await session.page.waitForURL((url) => url.pathname === "/admin");
  return session;
}

/** The local `Date` of a `YYYY-MM-DD` day, `days` later (or earlier): built from its parts, never parsed as UTC. */
function localDay(ymd: string, days = 0) {
  const [year, month, day] = ymd.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, day + days);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** DayPicker names a day button "Saturday, July 4th, 2026", with "Today, " before and ", selected" after when so. */
function dayButtonName(date: Date) {
  return new RegExp(`^(Today, )?${escapeRegExp(format(date, "PPPP"))}(, selected)?$`);
}

describe("admin app settings with JavaScript", () => {
  test("the countdown set two minutes ahead in New York time shows on the landing page at once", async () => {
    const { page, context, problems } = await signedInAdmin();
    const previous = (await (await context.request.get("/api/admin/settings/countdown_date")).json()) as { value: string };
    try {
      await page.goto("/admin/app-settings");
      await expectVisible(page.getByRole("heading", { name: "App Configuration" }));
      // Two minutes ahead, rounded up to the minute: between 2 and 3 minutes from now.
      const target = new Date(Math.ceil((Date.now() + 2 * MINUTE) / MINUTE) * MINUTE);
      const targetDay = formatInTimeZone(target, NEW_YORK, "yyyy-MM-dd");
      const today = formatInTimeZone(new Date(), NEW_YORK, "yyyy-MM-dd");

      // Hydrated, the date is picked in a calendar under a button (not the browser's date input).
      const picker = page.getByRole("button", { name: /^Launch date: / });
      await picker.click();
      const calendar = page.getByRole("dialog", { name: "Choose the launch date" });
      await expectSettled(calendar);
      // It opens on the current target's month; it pages back no further than this month.
      const previousMonth = calendar.getByRole("button", { name: "Previous month" });
      for (let i = 0; i < 240 && (await previousMonth.getAttribute("aria-disabled")) !== "true"; i += 1) await previousMonth.click();
      assert.equal(await previousMonth.getAttribute("aria-disabled"), "true");
      // No day shown before today (New York) can be picked; today and every later one can. The last
      // month's days in the first row (December 2026 begins on a Tuesday) lie before the first
      // month the calendar may show: DayPicker hides them and gives them no button at all.
      const shown = await calendar.locator("td[data-day]").evaluateAll((cells) =>
        cells.map((cell) => {
          const button = cell.querySelector("button");
          return { day: cell.getAttribute("data-day"), pickable: Boolean(button && !button.disabled) };
        }),
      );
      assert.ok(shown.length >= 28, `expected a month of days, saw ${shown.length}`);
      for (const { day, pickable } of shown) assert.equal(pickable, (day ?? "") >= today, `${day} can be picked: ${pickable}`);
      const yesterday = calendar.getByRole("button", { name: dayButtonName(localDay(today, -1)) });
      if ((await yesterday.count()) > 0) {
        const before = await picker.getAttribute("aria-label");
        assert.equal(await yesterday.isDisabled(), true, "yesterday can be picked");
        await yesterday.click({ force: true });
        await expectVisible(calendar);
        assert.equal(await picker.getAttribute("aria-label"), before);
      }
      assert.equal(await calendar.getByRole("button", { name: dayButtonName(localDay(today)) }).isEnabled(), true);

      // Two minutes ahead is today, or at a month's end just before midnight, the 1st of the next month.
      const dayButton = calendar.getByRole("button", { name: dayButtonName(localDay(targetDay)) });
      if ((await dayButton.count()) === 0) await calendar.getByRole("button", { name: "Next month" }).click();
      await dayButton.click();
      await calendar.waitFor({ state: "hidden" });
      assert.equal(await picker.getAttribute("aria-label"), `Launch date: ${format(localDay(targetDay), "EEE, MMM d, yyyy")}`);
      await page.getByLabel("Time (24-hour, ET)").fill(formatInTimeZone(target, NEW_YORK, "HH:mm"));
      await expectVisible(page.getByText(`That is ${formatInTimeZone(target, "UTC", "MMM d, HH:mm 'UTC'")}`));
      await page.getByRole("button", { name: "Update Countdown Date" }).click();
      await expectVisible(page.getByText("Countdown Date Updated"));
      // One launch-time format everywhere (issue 28): "Saturday, July 4, 2026 at 8:30 PM EDT".
      await expectVisible(page.getByTestId("countdown-current").getByText(formatInTimeZone(target, NEW_YORK, "h:mm a zzz")));

      const pub = (await (await context.request.get("/api/countdown-date")).json()) as { date: string };
      assert.equal(pub.date, target.toISOString());

      await page.goto("/");
      const units = page.locator("[role=timer] .countdown-digits");
      await units.first().waitFor();
      const [days, hours, mins] = await units.allInnerTexts();
      assert.deepEqual([days, hours], ["00", "00"]);
      assert.ok(["01", "02"].includes(mins ?? ""), `expected 01 or 02 minutes, saw ${mins}`);
      assert.deepEqual(problems, []);
    } finally {
      const restored = await context.request.post("/api/admin/settings", { data: { key: "countdown_date", value: previous.value } });
      assert.equal(restored.status(), 200, await restored.text());
      // A countdown near now opens the waiting room (decision 0019); the store's one-second view of it must catch up.
      noteStoreWrite();
    }
  });

  test("a video is uploaded with a progress bar and becomes the background; a fake one is refused", async () => {
    const { page, context } = await signedInAdmin();
    const previous = ((await (await context.request.get("/api/background-video")).json()) as { videoUrl: string }).videoUrl;
    try {
      await page.goto("/admin/app-settings");
      const input = page.getByTestId("video-file-input");
      await input.setInputFiles({ name: "notes.mp4", mimeType: "video/mp4", buffer: Buffer.from("not a video at all ".repeat(8)) });
      await expectVisible(page.getByText("Video Upload Failed"));
      await expectVisible(page.getByText("Please select a video file."));

      await input.setInputFiles({ name: "drop.mp4", mimeType: "video/mp4", buffer: fs.readFileSync(CLIP) });
      await expectVisible(page.getByText("Background Video Updated"), 15_000);
      // The toast can come a moment before the settings query has refetched the new URL.
      const current = page.getByTestId("video-current-url").filter({ hasText: /^\/uploads\/media\// });
      await current.waitFor({ state: "visible", timeout: 10_000 });
      const url = await current.innerText();
      assert.match(url, /^\/uploads\/media\/video-[0-9a-f]+\.mp4$/);
      assert.deepEqual(await (await context.request.get("/api/background-video")).json(), { videoUrl: url });
      const served = await context.request.get(url);
      assert.equal(served.headers()["content-type"], "video/mp4");
    } finally {
      const restored = await context.request.post("/api/admin/background-video", { data: { videoUrl: previous } });
      assert.equal(restored.status(), 200);
    }
  });
});

describe("admin app settings without JavaScript", () => {
  test("the countdown date is the browser's date input from today on, and the form still saves", async () => {
    const { page, context, problems } = await signedInAdmin({ javaScriptEnabled: false });
    const previous = (await (await context.request.get("/api/admin/settings/countdown_date")).json()) as { value: string };
    try {
      await page.goto("/admin/app-settings");
      await expectVisible(page.getByRole("heading", { name: "App Configuration" }));
      const today = formatInTimeZone(new Date(), NEW_YORK, "yyyy-MM-dd");
      const date = page.getByLabel("Launch date");
      assert.equal(await date.getAttribute("type"), "date");
      assert.equal(await date.getAttribute("min"), today);
      assert.equal(await page.getByRole("button", { name: /^Launch date: / }).count(), 0);

      // Noon New York time, a week from today.
      const day = format(localDay(today, 7), "yyyy-MM-dd");
      await date.fill(day);
      await page.getByLabel("Time (24-hour, ET)").fill("12:00");
      await page.getByRole("button", { name: "Update Countdown Date" }).click();
      await expectVisible(page.getByText("Countdown Date Updated"));
      const pub = (await (await context.request.get("/api/countdown-date")).json()) as { date: string };
      assert.equal(formatInTimeZone(new Date(pub.date), NEW_YORK, "yyyy-MM-dd HH:mm"), `${day} 12:00`);
      assert.deepEqual(problems, []);
    } finally {
      const restored = await context.request.post("/api/admin/settings", { data: { key: "countdown_date", value: previous.value } });
      assert.equal(restored.status(), 200, await restored.text());
      // A countdown near now opens the waiting room (decision 0019); the store's one-second view of it must catch up.
      noteStoreWrite();
    }
  });
});

describe("admin account with JavaScript", () => {
  test("the password is changed, other sessions end, the new one signs in; then it is changed back", async () => {
    // An admin of its own: the shared one's password and sessions stay as they are.
    const admin = await createAdmin("e2e-password");
    const { page, problems } = await signedInAdmin(undefined, admin);
    const elsewhere = await signedInAdmin(undefined, admin);
    const newPassword = `${admin.password}-new`;
    await page.goto("/admin/settings");
    await expectVisible(page.getByRole("heading", { name: "Account Settings" }));
    await expectVisible(page.getByTestId("account-username").getByText(admin.username));

    await page.getByLabel("Current password").fill(admin.password);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill(`${newPassword}x`);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expectVisible(page.getByText("Passwords don't match"));

    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expectVisible(page.getByText("Password updated"));

    // The other browser is signed out; this one is not.
    await elsewhere.page.goto("/admin/settings");
    await elsewhere.page.waitForURL("**/auth?redirectTo=%2Fadmin%2Fsettings");
    await page.reload();
    await expectVisible(page.getByRole("heading", { name: "Account Settings" }));

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await signIn(page, { username: admin.username, password: newPassword });
    await page.waitForURL((url) => url.pathname === "/admin");

    // Changed back through the same form.
    await page.goto("/admin/settings");
    await page.getByLabel("Current password").fill(newPassword);
    await page.getByLabel("New password", { exact: true }).fill(admin.password);
    await page.getByLabel("Confirm new password").fill(admin.password);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expectVisible(page.getByText("Password updated"));
    assert.deepEqual(problems, []);

    const check = await newPage();
    await signIn(check.page, admin);
    await check.page.waitForURL((url) => url.pathname === "/admin");
  });

  test("the shipping test shows the label's tracking number, carrier, cost and link", async () => {
    const { page, context, problems } = await signedInAdmin();
    await page.goto("/admin/settings");
    await page.getByRole("button", { name: "Test Shipping Label" }).click();
    const result = page.getByTestId("shipping-test-result");
    await expectVisible(result, 15_000);
    await expectVisible(result.getByText("Tracking number"));
    await expectVisible(result.getByText(/\$\d+\.\d{2}/));
    const href = await result.getByRole("link", { name: "Open the label" }).getAttribute("href");
    assert.match(href ?? "", /^\/api\/admin\/labels\//);
    // The label carries an address: the signed-in admin can open it, nobody else.
    assert.ok(href);
    const pdf = await context.request.get(href);
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()["content-type"], "application/pdf");
    assert.deepEqual(problems, []);
  });
});
