// Issue 15 part 5: every flow works from the keyboard alone, with a focus you can see at every stop:
// the shopper's (sign-up on the landing page, store, product, bag, checkout, the test card), the
// waiting room's and the admin's (sign in, open a product, edit, save). A toast never traps or
// moves the focus: Tab goes on from where the shopper was, through the toast and past it; alt+T
// (sonner's hotkey) jumps to it and Tab comes back.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before } from "node:test";
import type { Page } from "playwright-core";
import { ADMIN, describe, expectVisible, newPage, test, type Credentials } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName } from "./support/data";
import { startStore, type StoreProcess } from "./support/store-process";

/** KEYBOARD_SCREENSHOTS=<dir> keeps a picture of the focus at the walk's main stops. */
const SHOTS = process.env.KEYBOARD_SCREENSHOTS;

/*
 * What has the focus, and whether the browser draws it: `:focus-visible`, and an outline or a
 * ring-like box-shadow (no offset, a spread, a colour at least 30 % opaque). A drop shadow, or
 * sonner's own 20 % black ring on the dark theme, is no focus indicator. Installed as plain source
 * (not a tsx-compiled callback) and called by name from the test.
 */
const PROBE = `
window.__focusProbe = function () {
  function alpha(color) {
    if (!color || color === "transparent") return 0;
    var slash = /\\/\\s*([\\d.]+)(%?)\\s*\\)$/.exec(color);
    if (slash) return parseFloat(slash[1]) / (slash[2] ? 100 : 1);
    var rgba = /^rgba\\(([^)]*)\\)$/.exec(color);
    if (rgba) return parseFloat(rgba[1].split(",")[3]);
    return 1;
  }
  function layers(shadow) {
    var out = [], depth = 0, start = 0;
    for (var i = 0; i < shadow.length; i++) {
      var c = shadow[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "," && depth === 0) { out.push(shadow.slice(start, i)); start = i + 1; }
    }
    out.push(shadow.slice(start));
    return out.map(function (s) { return s.trim(); });
  }
  var el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return { none: true };
  function drawn(style) {
    var outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1 && alpha(style.outlineColor) >= 0.3;
    var ring = style.boxShadow !== "none" && layers(style.boxShadow).some(function (layer) {
      var color = (/(?:rgba?|oklab|oklch|lab|lch|hsla?|color)\\([^)]*\\)|#[0-9a-f]+|[a-z]+/i.exec(layer) || [""])[0];
      var sizes = layer.replace(color, "").replace("inset", "").trim().split(/\\s+/).map(parseFloat);
      return sizes[0] === 0 && sizes[1] === 0 && (sizes[3] || 0) >= 1 && alpha(color) >= 0.3;
    });
    return outline || ring;
  }
  var style = getComputedStyle(el);
  // A radio or checkbox inside a card-like <label> may draw its ring on the label instead.
  var label = el.closest("label");
  var labelStyle = label && label !== el ? getComputedStyle(label) : null;
  var name = el.getAttribute("aria-label");
  if (!name && el.getAttribute("aria-labelledby")) {
    name = el.getAttribute("aria-labelledby").split(/\\s+/).map(function (id) {
      var label = document.getElementById(id);
      return label ? label.textContent : "";
    }).join(" ");
  }
  if (!name && el.labels && el.labels.length) name = el.labels[0].textContent;
  if (!name) name = el.textContent || el.getAttribute("placeholder") || el.getAttribute("name") || el.tagName;
  // What is on top at the middle of the control's visible part: a sticky bar or a toast laid over
  // the focused control hides it (WCAG 2.4.11).
  var box = el.getBoundingClientRect();
  var left = Math.max(box.left, 0), right = Math.min(box.right, innerWidth);
  var top = Math.max(box.top, 0), bottom = Math.min(box.bottom, innerHeight);
  var covering = null;
  if (right <= left || bottom <= top) covering = "(outside the window: " + JSON.stringify(box) + " at scrollY " + scrollY + ")";
  else {
    // Layers that hide nothing are looked through: one faded out (a toast on its way out), or an
    // invisible hit area a pseudo-element spreads past its box (sonner's gap above a toast).
    var x = (left + right) / 2, y = (top + bottom) / 2;
    var seeThrough = function (node) {
      var r = node.getBoundingClientRect();
      if (x < r.left || x > r.right || y < r.top || y > r.bottom) return true;
      for (var n = node; n && n.nodeType === 1; n = n.parentElement) {
        var s = getComputedStyle(n);
        if (parseFloat(s.opacity) === 0 || s.visibility === "hidden") return true;
      }
      return false;
    };
    var stack = document.elementsFromPoint(x, y), hit = null, ours = false;
    for (var i = 0; i < stack.length && !ours && !hit; i++) {
      var node = stack[i];
      if (el.contains(node) || node.contains(el) || (label && label.contains(node))) ours = true;
      else if (!seeThrough(node)) hit = node;
    }
    if (!ours) covering = hit ? hit.tagName + " " + (hit.textContent || "").replace(/\\s+/g, " ").trim().slice(0, 40) : "(nothing)";
  }
  return {
    none: false,
    name: name.replace(/\\s+/g, " ").trim(),
    covering: covering,
    focusVisible: el.matches(":focus-visible"),
    drawn: drawn(style) || Boolean(labelStyle && drawn(labelStyle)),
    inToast: Boolean(el.closest("[data-sonner-toaster]")),
    inFooter: Boolean(el.closest("footer")),
    look:
      "outline " + style.outlineStyle + " " + style.outlineWidth + " " + style.outlineColor + "; box-shadow " + style.boxShadow +
      (labelStyle ? "; its label's box-shadow " + labelStyle.boxShadow : ""),
  };
};`;

interface Focus {
  none: boolean;
  name: string;
  focusVisible: boolean;
  drawn: boolean;
  inToast: boolean;
  inFooter: boolean;
  covering: string | null;
  look: string;
}

async function keyboardPage(width: number, baseURL?: string) {
  const opened = await newPage({ viewport: { width, height: 844 }, ...(baseURL ? { baseURL } : {}) });
  await opened.context.addInitScript({ content: PROBE });
  return opened;
}

async function hydrated(page: Page): Promise<void> {
  await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

const probe = (page: Page) => page.evaluate("window.__focusProbe()") as Promise<Focus>;

/**
 * The focus as it settles: rings fade in and the skip link slides in (short transitions), so this
 * waits for it to be drawn and fails, with what the browser computed, if it never is. `null` when
 * nothing has the focus. The wait is long: on a loaded machine the browser paints late (a run
 * beside two busy cores once saw the skip link still off screen 2 s after it took the focus).
 */
async function settledFocus(page: Page): Promise<Focus | null> {
  const now = await probe(page);
  if (now.none) return null;
  // A callback, not a string: the store's CSP forbids the eval a string predicate needs.
  await page
    .waitForFunction(
      () => {
        const focus = (window as unknown as { __focusProbe(): Focus }).__focusProbe();
        return focus.none || (focus.focusVisible && focus.drawn && !focus.covering);
      },
      null,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  const settled = await probe(page);
  if (settled.none) return null;
  assert.ok(
    settled.focusVisible && settled.drawn,
    `the focus on "${settled.name}" is not visible (:focus-visible ${settled.focusVisible}; ${settled.look})`,
  );
  assert.equal(settled.covering, null, `the focus on "${settled.name}" is hidden under ${settled.covering}`);
  return settled;
}

/**
 * The focus is on a control whose name matches, and it is drawn. Waits for the focus to get there
 * first: after a client-side navigation the address changes before the new page's effects run
 * (one of which may move the focus).
 */
async function expectFocusOn(page: Page, name: RegExp): Promise<Focus> {
  await page
    .waitForFunction(
      ([source, flags]) => {
        const focus = (window as unknown as { __focusProbe(): Focus }).__focusProbe();
        return !focus.none && new RegExp(source, flags).test(focus.name);
      },
      [name.source, name.flags] as const,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  const now = await settledFocus(page);
  assert.ok(now, `the focus is on ${name}, not on the page's body`);
  assert.match(now.name, name);
  return now;
}

/** Tabs (or Shift+Tabs) until the focused control's name matches, checking every stop is drawn. */
async function tabTo(page: Page, name: RegExp, { limit = 80, back = false } = {}): Promise<Focus> {
  const stops: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const now = await settledFocus(page).catch((error: Error) => {
      error.message += `, after ${stops.join(" → ")}`;
      throw error;
    });
    // Past the last control the focus leaves the page for the browser's own; the next Tab comes back.
    stops.push(now?.name ?? "(out of the page)");
    if (now && name.test(now.name)) return now;
  }
  assert.fail(`${name} was not reached in ${limit} presses: ${stops.join(" → ")}`);
}

/** Lets entrances (a toast rising) finish; looping animations never do. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await settle(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
}

/** Opens the page's main navigation: in the phone's menu below 768 px, in the header above. */
async function tabToNavLink(page: Page, name: RegExp, width: number): Promise<Focus> {
  if (width < 768) {
    await tabTo(page, /^Toggle menu$/);
    await page.keyboard.press("Enter");
  }
  return tabTo(page, name);
}

async function typeInto(page: Page, field: RegExp, text: string): Promise<void> {
  // A field the page focuses by itself (the sign-in's Username) needs no Tab.
  const now = await settledFocus(page);
  if (!now || !field.test(now.name)) await tabTo(page, field, { limit: 12 });
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast][data-removed=false]").filter({ hasText: text });

/** A keyboard shopper on a phone, on a product of their own, with the focus on Add To Bag. */
async function atAddToBag(productName: string) {
  const product = await createProduct(await adminApi(), { name: uniqueName(productName), price: 25, inventory: 10 });
  const opened = await keyboardPage(390);
  await opened.page.goto(`/store/${product.id}`);
  await hydrated(opened.page);
  await tabTo(opened.page, /^Add To Bag$/i);
  return opened;
}

/** The same shopper, who has just pressed Add To Bag: the toast is up. */
async function addedToBag(productName: string) {
  const opened = await atAddToBag(productName);
  await opened.page.keyboard.press("Enter");
  const added = toast(opened.page, "Added to Bag");
  await expectVisible(added);
  return { ...opened, added };
}

describe("the keyboard", () => {
  for (const width of [390, 1280]) {
    test(
      `at ${width}px: sign up on the landing page, shop, fill the checkout and pay with the test card`,
      { timeout: 90_000 },
      async () => {
        const product = await createProduct(await adminApi(), {
          name: uniqueName("E2E Keyboard Tee"),
          price: 25,
          inventory: 10,
          weight: 0.3,
          availableColors: ["Black"],
        });
        const { page, problems } = await keyboardPage(width);

        // The landing page's sign-up: the toast comes up and the focus stays where it was.
        await page.goto("/");
        await hydrated(page);
        await tabTo(page, /you@example\.com|email/i);
        await page.keyboard.type(uniqueEmail("keyboard"));
        await tabTo(page, /^Sign Up$/i, { limit: 3 });
        await page.keyboard.press("Enter");
        await expectVisible(toast(page, "Welcome to the legacy."));
        await expectFocusOn(page, /^Sign Up$/i);
        await shot(page, "landing-signed-up");

        // The store, the product, Add To Bag.
        const storeLink = await tabToNavLink(page, /^Store$/, width);
        await page.keyboard.press("Enter");
        await page.waitForURL((url) => url.pathname === "/store");
        await hydrated(page);
        // The phone's menu closes and gives the focus back to its button; a footer link gives it to
        // the new page's first stop; the header's link keeps it.
        await expectFocusOn(page, storeLink.inFooter ? /^Skip to content$/ : width < 768 ? /^Toggle menu$/ : /^Store$/);
        await tabTo(page, new RegExp(product.name, "i"), { limit: 120 });
        await shot(page, "store-card");
        await page.keyboard.press("Enter");
        await page.waitForURL(`**/store/${product.id}`);
        await hydrated(page);
        await tabTo(page, /^Add To Bag$/i);
        await page.keyboard.press("Enter");
        await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
        await expectVisible(toast(page, "Added to Bag"));
        // The toast neither took nor dropped the focus: the next Tab is the answer's link.
        await expectFocusOn(page, /^Add To Bag$/i);
        await shot(page, "added-to-bag");
        await tabTo(page, /^View bag$/i, { limit: 1 });
        await page.keyboard.press("Enter");

        // The bag, then the checkout's form, the rates and the test card.
        await page.waitForURL("**/cart");
        await hydrated(page);
        await tabTo(page, /^Checkout$/i);
        await page.keyboard.press("Enter");
        await page.waitForURL("**/checkout");
        await hydrated(page);
        await typeInto(page, /^Email/, uniqueEmail("keyboard-buyer"));
        await typeInto(page, /^Full name/, "Kay Board");
        const country = await tabTo(page, /^Country/, { limit: 3 });
        assert.ok(country, "the country is reachable");
        assert.equal(await page.getByLabel("Country").inputValue(), "US");
        await typeInto(page, /^Street address/, "350 5th Ave");
        await typeInto(page, /^City/, "New York");
        await typeInto(page, /^State/, "ny");
        await typeInto(page, /^ZIP/, "10001");
        await shot(page, "checkout-field");
        await expectVisible(page.getByTestId("shipping-rate"), 15_000);
        await tabTo(page, /^Process Order - \$\d/);
        await page.keyboard.press("Enter");
        await expectVisible(page.getByTestId("payment-form"));
        // The button gave way to the card form: the focus is on the step it opened, not the body.
        await expectFocusOn(page, /Payment$/);
        await tabTo(page, /^Card number/);
        await page.keyboard.type("4242 4242 4242 4242");
        await typeInto(page, /^Expiry/, "12 / 34");
        await typeInto(page, /^CVC/, "123");
        await tabTo(page, /^Complete Order - \$\d/);
        await shot(page, "complete-order");
        await page.keyboard.press("Enter");
        await expectVisible(page.getByTestId("payment-success").getByText("Payment Successful!"), 15_000);
        assert.deepEqual(problems, []);
      },
    );
  }

  test("a toast: Tab goes on from where the shopper was, through the toast and past it; alt+T jumps to it and back; it is announced", async () => {
    const product = await createProduct(await adminApi(), { name: uniqueName("E2E Toast Tee"), price: 25, inventory: 10 });
    const { page, problems } = await keyboardPage(390);
    // When the live region and the toast went into the page, counted in frames: a screen reader
    // announces only what is added to a region that was already there.
    await page.addInitScript({
      content: `
        window.__frames = 0;
        (function count() { window.__frames++; requestAnimationFrame(count); })();
        window.__added = {};
        new MutationObserver(function () {
          if (!window.__added.region && document.querySelector('section[aria-live="polite"]')) window.__added.region = window.__frames;
          if (!window.__added.toast && document.querySelector('section[aria-live="polite"] [data-sonner-toast]')) window.__added.toast = window.__frames;
        }).observe(document, { childList: true, subtree: true });`,
    });
    await page.goto(`/store/${product.id}`);
    await hydrated(page);
    await tabTo(page, /^Add To Bag$/i);
    await page.keyboard.press("Enter");
    const added = toast(page, "Added to Bag");
    await expectVisible(added);
    await expectFocusOn(page, /^Add To Bag$/i);

    const added_at = (await page.evaluate("window.__added")) as { region?: number; toast?: number };
    assert.ok(added_at.region !== undefined && added_at.toast !== undefined && added_at.region < added_at.toast, JSON.stringify(added_at));
    const region = page.locator('section[aria-live="polite"]');
    assert.match((await region.getAttribute("aria-label")) ?? "", /^Notifications alt\+T$/);
    assert.equal(await region.locator("[data-sonner-toast]").filter({ hasText: "Added to Bag" }).count(), 1);

    // Tab reaches the toast after the page's last link, then its close button, then leaves the
    // page: it does not go back to the footer (sonner's return sent it round and round).
    const footerLast = await tabTo(page, /Added to Bag/);
    assert.ok(footerLast.inToast);
    await shot(page, "toast-focused");
    await tabTo(page, /^Close toast$/, { limit: 1 });
    await shot(page, "toast-close-focused");
    const after = await tabTo(page, /^Skip to content$/, { limit: 3 });
    assert.ok(!after.inToast);

    // alt+T lands on the toast; tabbing out of it goes back to where the shopper was.
    await page.getByRole("button", { name: "Add To Bag" }).focus();
    await expectFocusOn(page, /^Add To Bag$/i);
    await page.keyboard.press("Alt+KeyT");
    assert.ok((await expectFocusOn(page, /Added to Bag/)).inToast);
    await tabTo(page, /^Close toast$/, { limit: 1 });
    await tabTo(page, /^Add To Bag$/i, { limit: 1 });

    // Closing the toast from the keyboard puts the focus back where the shopper was.
    await page.keyboard.press("Alt+KeyT");
    await tabTo(page, /^Close toast$/, { limit: 1 });
    await page.keyboard.press("Enter");
    await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached" });
    await expectFocusOn(page, /^Add To Bag$/i);
    assert.deepEqual(problems, []);
  });

  test("a toast that comes up over the control the shopper pressed scrolls that control clear of it", async () => {
    const { page, problems } = await atAddToBag("E2E Low Tee");
    // The page scrolled so that the button sits where the toast will rise, at the screen's foot.
    const button = page.getByRole("button", { name: "Add To Bag" });
    await page.evaluate(() => {
      const box = document.activeElement!.getBoundingClientRect();
      window.scrollBy(0, box.bottom - (innerHeight - 8));
    });
    const before = await button.boundingBox();
    assert.ok(before && before.y + before.height > 844 - 60, `the button sits at the screen's foot: ${JSON.stringify(before)}`);
    await page.keyboard.press("Enter");
    const added = toast(page, "Added to Bag");
    await expectVisible(added);
    await expectFocusOn(page, /^Add To Bag$/i);
    const [settled, over] = [await button.boundingBox(), await added.boundingBox()];
    assert.ok(
      settled && over && settled.y + settled.height <= over.y,
      `the button ${JSON.stringify(settled)} is above the toast ${JSON.stringify(over)}`,
    );
    assert.deepEqual(problems, []);
  });

  test("Tab onto a control that sits under a toast scrolls it clear of the toast", async () => {
    const { page, problems, added } = await addedToBag("E2E Under Tee");
    await settle(page);
    // The next stop, "View bag", put right under the toast: on screen, so the browser's own focus
    // scrolling leaves it where it is.
    const viewBag = page.getByRole("link", { name: "View bag" });
    const over = await added.boundingBox();
    assert.ok(over, "the toast is on screen");
    await viewBag.evaluate((link, toastTop) => {
      const box = link.getBoundingClientRect();
      window.scrollBy(0, box.top - (toastTop + 4));
    }, over.y);
    const before = await viewBag.boundingBox();
    assert.ok(before && before.y > over.y && before.y + before.height < 844, `"View bag" sits under the toast: ${JSON.stringify(before)}`);
    await tabTo(page, /^View bag$/, { limit: 1 });
    const [settled, toastBox] = [await viewBag.boundingBox(), await added.boundingBox()];
    assert.ok(
      settled && toastBox && settled.y + settled.height <= toastBox.y,
      `"View bag" ${JSON.stringify(settled)} is above the toast ${JSON.stringify(toastBox)}`,
    );
    assert.deepEqual(problems, []);
  });

  test("a toast raised on one page goes when the shopper moves on to another", async () => {
    const { page, problems } = await addedToBag("E2E Moving Tee");
    await tabTo(page, /^View bag$/, { limit: 1 });
    await page.keyboard.press("Enter");
    await page.waitForURL("**/cart");
    // Gone well inside its five seconds: "Added to Bag" over the bag (or the checkout) is old news.
    await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached", timeout: 2_000 });
    assert.deepEqual(problems, []);
  });

  test("the admin signs in, opens a product, edits and saves it", { timeout: 60_000 }, async () => {
    const name = uniqueName("E2E Keyboard Admin Tee");
    const product = await createProduct(await adminApi(), { name, description: "Before the keyboard.", price: 30, inventory: 5 });
    const { page, problems } = await keyboardPage(1280);
    await signInByKeyboard(page, ADMIN);
    await page.waitForURL((url) => url.pathname === "/admin");
    await expectVisible(toast(page, "Login successful"));
    await hydrated(page);
    await shot(page, "admin-dashboard");
    await tabTo(page, /^Products$/);
    await page.keyboard.press("Enter");
    await expectVisible(page.getByRole("heading", { name: "Product Management" }));
    await tabTo(page, new RegExp(`^Edit ${name}$`), { limit: 300 });
    await page.keyboard.press("Enter");
    await expectVisible(page.getByRole("heading", { name: `Edit ${name}` }));
    await typeInto(page, /^Description/, "Edited from the keyboard.");
    await shot(page, "admin-edit");
    await tabTo(page, /^Update Product$/);
    await page.keyboard.press("Enter");
    await expectVisible(toast(page, "Product Updated"));
    // Back in the list, the focus is on the product just saved.
    await page.waitForFunction((label) => document.activeElement?.getAttribute("aria-label") === label, `Edit ${name}`);
    await expectFocusOn(page, new RegExp(`^Edit ${name}$`));
    const saved = await (await adminApi()).get(`/api/admin/products/${product.id}`);
    assert.equal(((await saved.json()) as { description: string }).description, "Edited from the keyboard.");
    assert.deepEqual(problems, []);
  });
});

async function signInByKeyboard(page: Page, { username, password }: Credentials): Promise<void> {
  await page.goto("/admin/login");
  await hydrated(page);
  await typeInto(page, /^Username/, username);
  await typeInto(page, /^Password/, password);
  await tabTo(page, /^Sign in$/, { limit: 3 });
  await page.keyboard.press("Enter");
}

// The waiting room gates the whole store while it is open: it gets a store of its own.
describe("the keyboard in the waiting room", () => {
  const LINE_ADMIN = { username: "e2e-keyboard-line-admin", password: "e2e-keyboard-line-password" };
  let store: StoreProcess | undefined;
  before(async () => {
    store = await startStore({
      name: "e2e-keyboard-line",
      env: { ADMIN_USERNAME: LINE_ADMIN.username, ADMIN_PASSWORD: LINE_ADMIN.password },
    });
  });
  after(() => store?.stop());

  test("a shopper whose turn it is enters the store from the keyboard", { timeout: 60_000 }, async () => {
    assert.ok(store);
    const api = await adminApi({ baseURL: store.baseUrl, ...LINE_ADMIN });
    // The drop starts in a few seconds; the line lets everyone in at once after the draw.
    const opened = await api.patch("/api/admin/waiting-room", { data: { paused: false, admitPerMinute: 600 } });
    assert.equal(opened.status(), 200, await opened.text());
    const starts = await api.post("/api/admin/settings", {
      data: { key: "countdown_date", value: new Date(Date.now() + 4_000).toISOString() },
    });
    assert.equal(starts.status(), 200, await starts.text());
    try {
      const { page, problems } = await keyboardPage(390, store.baseUrl);
      await page.goto("/waiting-room");
      await hydrated(page);
      assert.equal(new URL(page.url()).pathname, "/waiting-room");
      await expectVisible(page.getByRole("link", { name: "Enter the store" }), 30_000);
      await tabTo(page, /^Enter the store$/);
      await shot(page, "waiting-room");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/store");
      assert.deepEqual(problems, []);
    } finally {
      await api.patch("/api/admin/waiting-room", { data: { ended: true } });
    }
  });
});
