// Toasts sit at the bottom of the window: clear of the sticky header, and gone on time by themselves.
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { ADMIN, describe, expectVisible, MODES, newPage, signIn, test } from "./browser";
import { uniqueEmail } from "./support/data";

// A success toast shows for 5 s; its exit takes under half a second. Past this it has stayed.
const GONE_WITHIN_MS = 8_000;
const WIDTHS = [390, 1280];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toast's box once its entrance has finished moving it. */
async function settledBox(toast: Locator): Promise<Box | null> {
  let last: Box | null = null;
  for (let i = 0; i < 30; i++) {
    const box = await toast.first().boundingBox();
    if (box && last && box.x === last.x && box.y === last.y && box.width === last.width && box.height === last.height) return box;
    last = box;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

/**
 * The toast is clear of the sticky header, and leaves on time even while the pointer rests on
 * the navigation (a toast laid over the header used to pause under the pointer and stay).
 */
async function expectLeavesOnItsOwn(page: Page, toast: Locator, width: number): Promise<void> {
  await expectVisible(toast);
  const shownAt = Date.now();
  const box = await settledBox(toast);
  const header = await page.getByRole("banner").boundingBox();
  assert.ok(header && box, "the header and the toast are on the page");
  assert.ok(!overlaps(header, box), `the toast (${JSON.stringify(box)}) covers the header (${JSON.stringify(header)})`);

  const banner = page.getByRole("banner");
  const reach =
    width < 768 ? banner.getByLabel("Toggle menu") : banner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Store" });
  await reach.hover();
  await toast.first().waitFor({ state: "hidden", timeout: Math.max(1, GONE_WITHIN_MS - (Date.now() - shownAt)) });
}

for (const width of WIDTHS) {
  for (const mode of MODES) {
    describe(`a success toast at ${width}px ${mode.name}`, () => {
      test("after signing in, it leaves by itself and never covers the navigation", async () => {
        const { page, problems } = await newPage({ ...mode, viewport: { width, height: 800 } });
        await signIn(page, ADMIN);
        await page.waitForURL((url) => url.pathname === "/admin");
        // With JavaScript sonner shows the flash; without, the static copy that fades out in CSS.
        const toast = page
          .locator(mode.javaScriptEnabled ? "[data-sonner-toast]" : "[data-testid=flash-toast]")
          .filter({ hasText: "Login successful" });
        await expectLeavesOnItsOwn(page, toast, width);
        assert.deepEqual(problems, []);
      });
    });
  }

  test(`a toast from the landing page's sign-up at ${width}px leaves by itself and never covers the navigation`, async () => {
    const { page, problems } = await newPage({ javaScriptEnabled: true, viewport: { width, height: 800 } });
    await page.goto("/");
    await page.getByPlaceholder("you@example.com").fill(uniqueEmail(`toast-${width}`));
    await page.getByRole("button", { name: "Sign Up" }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Welcome to the legacy." });
    await expectLeavesOnItsOwn(page, toast, width);
    assert.deepEqual(problems, []);
  });
}
