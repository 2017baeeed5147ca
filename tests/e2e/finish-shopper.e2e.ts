// Issue 28, the shopper's half: focus after what goes away, failures inline and not toasted, toasts
// that keep clear of what comes next, and one voice (titles, links, times, pictures).
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, describe, expectSettled, expectVisible, fillCheckoutDetails, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName, type ProductFields } from "./support/data";

const JS = { javaScriptEnabled: true };
const NO_JS = { javaScriptEnabled: false };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const ownProduct = async (prefix: string, fields: Partial<ProductFields> = {}): Promise<AdminProduct> =>
  createProduct(await adminApi(), { name: uniqueName(prefix), price: 30, inventory: 10, weight: 0.3, ...fields });

/** Live toasts (sonner's, not the ones on their way out). */
const toasts = (page: Page) => page.locator("[data-sonner-toast][data-removed=false]");

/** The focused element's id, tag, name, and text, for asserts that read well when they fail. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      id: el?.id ?? "",
      tag: el?.tagName.toLowerCase() ?? "",
      text: (el?.textContent ?? "").trim(),
      name: el?.getAttribute("name") ?? "",
    };
  });
}

/**
 * Waits (up to 3 s) for the focus to be on the element of that id, then checks it: the form moves
 * the focus in an effect after the render that shows what is missing, a moment after the click.
 */
async function expectFocusedId(page: Page, id: string): Promise<void> {
  await page.waitForFunction((wanted) => document.activeElement?.id === wanted, id, { timeout: 3_000 }).catch(() => undefined);
  assert.equal((await focused(page)).id, id);
}

async function addToBag(page: Page, product: AdminProduct, js: boolean) {
  await page.goto(`/store/${product.id}`);
  if (js) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
  await page.getByRole("button", { name: "Add To Bag" }).click();
  if (js) await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
  else await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));
}

/** Sure that nothing shows up for a while: a toast comes within a few frames of its cause. */
async function expectNoToast(page: Page, text: string | RegExp) {
  await page.waitForTimeout(1_200);
  assert.equal(await toasts(page).filter({ hasText: text }).count(), 0, `no toast says ${String(text)}`);
}

describe("one voice", () => {
  test("every page's tab title reads '{Page} | Legacy'", async () => {
    const product = await ownProduct("E2E Title Tee");
    const { page } = await newPage(NO_JS);
    const pages: [string, string][] = [
      ["/", "Early Access"],
      ["/countdown", "Countdown"],
      ["/store", "Store"],
      [`/store/${product.id}`, product.name],
      ["/about", "About"],
      ["/support", "Get Support"],
      ["/cart", "Shopping Cart"],
      ["/admin/login", "Admin Login"],
      ["/no/such/page", "404 Page Not Found"],
    ];
    for (const [path, name] of pages) {
      await page.goto(path);
      assert.equal(await page.title(), `${name} | Legacy`, path);
    }
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname === "/admin");
    for (const path of ["/admin/orders", "/admin/products", "/admin/app-settings"]) {
      await page.goto(path);
      assert.match(await page.title(), /^[A-Z][\w ]+ \| Legacy$/, path);
    }
  });

  test("on a phone no line of the store's drop terms starts with a bullet", async () => {
    const { page } = await newPage({ ...NO_JS, viewport: PHONE });
    await page.goto("/store");
    const terms = page.getByRole("list", { name: "Drop terms" });
    await expectVisible(terms);
    const starts = await terms.evaluate((list) => {
      const items = Array.from(list.children) as HTMLElement[];
      // Each line's first box: the leftmost visible child of the items on that line.
      const firsts = new Map<number, { left: number; dot: boolean }>();
      for (const item of items) {
        for (const child of Array.from(item.childNodes)) {
          const range = document.createRange();
          range.selectNode(child);
          const box = range.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          const line = Math.round(box.top);
          const dot = child instanceof HTMLElement && child.getAttribute("aria-hidden") === "true";
          const was = firsts.get(line);
          if (!was || box.left < was.left) firsts.set(line, { left: box.left, dot });
        }
      }
      return [...firsts.values()];
    });
    assert.ok(starts.length > 0);
    assert.deepEqual(
      starts.filter((start) => start.dot),
      [],
      "a line starts with a dot",
    );
  });

  test("the success page's link to the store says where it goes", async () => {
    const { page } = await newPage(NO_JS);
    await page.goto("/checkout-success");
    const link = page.getByRole("link", { name: "Continue shopping" });
    await expectVisible(link);
    assert.equal(await link.getAttribute("href"), "/store");
    assert.equal(await page.getByRole("link", { name: "Back to Store" }).count(), 0);
  });

  test("the seeded pictures are neutral, not a T-shirt for a cap", async () => {
    const { page } = await newPage(JS);
    await page.goto("/store");
    const answer = await page.evaluate(async () => (await fetch("/api/products")).json());
    const cap = (answer as { name: string; imageUrl: string | null }[]).find((p) => /Six-Panel Cap/.test(p.name) && !/E2E/.test(p.name));
    assert.ok(cap?.imageUrl, "the seeded cap has a picture");
    // A T-shirt leaves the background showing in its neck opening, above the body; a neutral
    // picture has the same colour there as lower down.
    const distance = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const [neck, body] = [0.221, 0.75].map((y) =>
        Array.from(g.getImageData(Math.round(0.5 * canvas.width), Math.round(y * canvas.height), 1, 1).data),
      );
      return Math.max(...[0, 1, 2].map((i) => Math.abs(neck![i]! - body![i]!)));
    }, cap.imageUrl);
    assert.ok(distance < 20, `the neck and the body differ by ${distance}: a garment's outline`);
  });

  test("launch times are written one way; 'an audio file'", async () => {
    const { page } = await newPage(JS);
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto("/admin/app-settings");
    // "Saturday, July 4, 2026 at 8:30 PM EDT", never "at 20:30 EDT", "8:30 PM ET" or "New York time".
    await expectVisible(page.getByText(/\b[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M E[DS]T\b/));
    const text = await page.locator("main").innerText();
    assert.doesNotMatch(text, / at \d{2}:\d{2} E[DS]T\b/);
    assert.equal(await page.getByLabel("Upload an audio file").count(), 1);
    assert.equal(await page.getByLabel("Upload a video file").count(), 1);
  });
});

describe("the bag", () => {
  test("minus on a line's last unit hands the focus to the next line, then to the store link", async () => {
    const [first, second] = [await ownProduct("E2E Focus Cap"), await ownProduct("E2E Focus Hoodie")];
    const { page } = await newPage({ ...JS, viewport: DESKTOP });
    await addToBag(page, first, true);
    await addToBag(page, second, true);
    await page.goto("/cart");
    const lines = page.getByRole("list", { name: "Items in your bag" }).getByTestId("cart-line");
    await expectVisible(lines.filter({ hasText: first.name }));
    await page.getByRole("button", { name: `Decrease quantity of ${first.name}` }).focus();
    await page.keyboard.press("Enter");
    await lines.filter({ hasText: first.name }).waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 3_000 }).catch(() => undefined);
    assert.equal((await focused(page)).text, second.name);

    await page.getByRole("button", { name: `Decrease quantity of ${second.name}` }).focus();
    await page.keyboard.press("Enter");
    await expectVisible(page.getByText("Your cart is empty"));
    await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 3_000 }).catch(() => undefined);
    assert.equal((await focused(page)).text, "Shop the drop");
  });

  for (const mode of [JS, NO_JS]) {
    test(`plus at its limit says why beside it (${mode.javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const scarce = await ownProduct("E2E Scarce Cap", { inventory: 1 });
      const limited = await ownProduct("E2E Limited Cap", { inventory: 10, maxPerCustomer: 1 });
      const { page } = await newPage({ ...mode, viewport: PHONE });
      await addToBag(page, scarce, mode.javaScriptEnabled);
      await addToBag(page, limited, mode.javaScriptEnabled);
      await page.goto("/cart");
      for (const [product, note] of [
        [scarce, "Only 1 left"],
        [limited, "Limit reached"],
      ] as const) {
        const line = page.getByTestId("cart-line").filter({ hasText: product.name });
        const plus = line.getByRole("button", { name: `Increase quantity of ${product.name}` });
        assert.equal(await plus.isDisabled(), true);
        await expectVisible(line.getByTestId("plus-limit").getByText(note, { exact: true }));
        // Beside the button, on its row.
        const [a, b] = [await plus.boundingBox(), await line.getByTestId("plus-limit").boundingBox()];
        assert.ok(a && b && Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) < 12 && b.x > a.x, "the note sits beside plus");
      }
      // And the line still fits the phone: nothing scrolls sideways.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the page overflows sideways");
    });
  }
});

describe("support", () => {
  test("Message Sent! takes the focus, and Send Another Message gives it to the form's first field", async () => {
    const { page } = await newPage({ ...JS, viewport: PHONE });
    await page.goto("/support");
    await page.getByLabel("Name").fill("Rosa Díaz");
    await page.getByLabel("Email").fill("rosa@example.com");
    await page.getByLabel("Subject").fill("Where is my hoodie?");
    await page.getByLabel("Message", { exact: true }).fill("It has been a week since the drop and nothing yet.");
    await page.getByRole("button", { name: "Send Message" }).press("Enter");
    await expectVisible(page.getByRole("heading", { name: "Message Sent!" }));
    await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 3_000 }).catch(() => undefined);
    assert.equal((await focused(page)).text, "Message Sent!");

    await page.getByRole("link", { name: "Send Another Message" }).press("Enter");
    await expectVisible(page.getByRole("button", { name: "Send Message" }));
    await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 3_000 }).catch(() => undefined);
    assert.equal((await focused(page)).id, "support-form-name");
  });
});

async function atCheckout(page: Page, product: AdminProduct, js: boolean) {
  await addToBag(page, product, js);
  await page.goto("/checkout");
  if (js) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

async function reachPayment(page: Page, product: AdminProduct) {
  await atCheckout(page, product, true);
  await fillCheckoutDetails(page);
  await expectVisible(page.getByTestId("shipping-rate"));
  await page.getByRole("button", { name: /^Process Order - / }).click();
  await expectVisible(page.getByTestId("payment-form"));
}

describe("checkout", () => {
  test("on a phone, Process Order with fields missing focuses the first, says so inline, and toasts nothing", async () => {
    const product = await ownProduct("E2E Missing Cap");
    const { page } = await newPage({ ...JS, viewport: PHONE });
    await atCheckout(page, product, true);
    // The State hint is beside its label, never a grey "NY" in the box.
    const state = page.getByLabel(/^State/);
    assert.equal(await state.getAttribute("placeholder"), null);
    await expectVisible(page.locator("label[for=checkout-state]").getByText("(e.g. NY)"));

    await page.getByRole("button", { name: /^Process Order - / }).click();
    await expectVisible(page.getByTestId("checkout-missing").getByText("Missing information"));
    await expectFocusedId(page, "checkout-email");
    const email = page.getByLabel("Email");
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    const describedBy = await email.getAttribute("aria-describedby");
    assert.equal(await page.locator(`#${describedBy}`).innerText(), "Required");
    // The field is on screen, under the sticky header.
    const box = await email.boundingBox();
    assert.ok(box && box.y >= 56 && box.y + box.height <= PHONE.height, `the e-mail field is in view (${JSON.stringify(box)})`);
    await expectNoToast(page, "Missing information");

    // The first field still missing, once the e-mail is in: the name.
    await email.fill("eve@example.com");
    await page.getByRole("button", { name: /^Process Order - / }).click();
    await expectFocusedId(page, "checkout-name");
  });

  test("Change after Process Order puts the focus on the form's first field", async () => {
    const product = await ownProduct("E2E Change Cap");
    const { page } = await newPage({ ...JS, viewport: DESKTOP });
    await reachPayment(page, product);
    await page.getByTestId("details-review").getByRole("button", { name: "Change" }).click();
    await expectVisible(page.getByLabel("Email"));
    await expectFocusedId(page, "checkout-email");
  });

  for (const viewport of [PHONE, DESKTOP]) {
    test(`a declined card is said inline only, with nothing over Complete Order (${viewport.width}px)`, async () => {
      const product = await ownProduct("E2E Decline Cap");
      const { page } = await newPage({ ...JS, viewport });
      await reachPayment(page, product);
      await page.getByLabel("Card number").fill("4000 0000 0000 0002");
      await page.getByLabel("Expiry").fill("12 / 34");
      await page.getByLabel("CVC").fill("123");
      await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
      await expectVisible(page.getByTestId("payment-error").getByText("Payment Failed"));
      await expectNoToast(page, "Payment Failed");
    });
  }

  test("without JavaScript, the first Process Order with every field filled takes the default shipping", async () => {
    const product = await ownProduct("E2E Default Ship Cap");
    const { page } = await newPage({ ...NO_JS, viewport: PHONE });
    await atCheckout(page, product, false);
    await fillCheckoutDetails(page);
    // Straight to Process Order: the options were never calculated on screen.
    await page.getByRole("button", { name: /^Process Order/ }).click();
    await page.waitForURL(/\/checkout\/pay\//);
    await expectVisible(page.getByTestId("summary-shipping"));
  });
});

describe("toasts", () => {
  test("a duplicate sign-up is said inline, with no toast over the Terms dialog (phone)", async () => {
    const email = uniqueEmail("e2e-dup");
    const { page } = await newPage({ ...JS, viewport: PHONE });
    await page.goto("/");
    const signUp = async () => {
      await page.getByPlaceholder("you@example.com").fill(email);
      await page.getByRole("button", { name: "Sign Up" }).click();
    };
    await signUp();
    await expectVisible(page.locator("#join").getByText("Welcome to the legacy."));
    await signUp();
    await expectVisible(page.locator("#join").getByRole("alert").filter({ hasText: "This email is already subscribed." }));
    await expectNoToast(page, "already subscribed");
    await page.getByRole("button", { name: "Terms & Conditions" }).click();
    const dialog = page.getByRole("dialog", { name: "Terms & Conditions" });
    await expectSettled(dialog);
    await expectNoOverlap(page, dialog.getByRole("button", { name: "Close" }).last());
  });

  test("a modal dialog closes the toast behind it; on a touch phone the close button is 44x44", async () => {
    const { page } = await newPage({ ...JS, viewport: PHONE });
    await page.goto("/");
    await page.getByPlaceholder("you@example.com").fill(uniqueEmail("e2e-toast"));
    await page.getByRole("button", { name: "Sign Up" }).click();
    const toast = toasts(page).filter({ hasText: "Welcome to the legacy." });
    await expectVisible(toast);
    const close = toast.locator("[data-close-button]");
    const box = await close.boundingBox();
    assert.ok(box && box.width >= 44 && box.height >= 44, `the close button is ${box?.width}x${box?.height}`);
    await page.getByRole("button", { name: "Terms & Conditions" }).click();
    await expectSettled(page.getByRole("dialog", { name: "Terms & Conditions" }));
    await toast.waitFor({ state: "detached", timeout: 2_000 });
  });
});

/** No toast lies over `control`. */
async function expectNoOverlap(page: Page, control: Locator) {
  const target = await control.boundingBox();
  assert.ok(target);
  for (const toast of await toasts(page).all()) {
    const box = await toast.boundingBox();
    if (!box || !(await toast.isVisible())) continue;
    const overlaps =
      box.x < target.x + target.width && target.x < box.x + box.width && box.y < target.y + target.height && target.y < box.y + box.height;
    assert.ok(!overlaps, `a toast (${await toast.innerText()}) lies over the control`);
  }
}
