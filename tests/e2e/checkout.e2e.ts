import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { describe, expectSettled, expectVisible, fillCheckoutDetails, newPage, test, type Address } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName } from "./support/data";

const JS = { javaScriptEnabled: true };
const NO_JS = { javaScriptEnabled: false };
type Mode = typeof JS;

/** A cap of the test's own, in stock whatever else has been sold. */
async function ownCap(): Promise<AdminProduct> {
  return createProduct(await adminApi(), {
    name: uniqueName("E2E Six-Panel Cap"),
    price: 32,
    inventory: 10,
    weight: 0.3,
    availableColors: ["Black"],
  });
}

async function hydrated(page: Page, mode: Mode) {
  if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

async function badge(page: Page) {
  const count = page.getByTestId("cart-count");
  return (await count.count()) === 0 ? "0" : (await count.innerText()).trim();
}

async function addToBag(page: Page, mode: Mode, product: AdminProduct) {
  await page.goto("/store");
  await page.getByTestId("product-card").filter({ hasText: product.name }).click();
  await page.waitForURL(/\/store\/\d+$/);
  await hydrated(page, mode);
  await page.getByRole("button", { name: "Add To Bag" }).click();
  if (mode.javaScriptEnabled) await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
  else await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));
}

// Texas taxes the goods and their shipping; in New York an item under $110 is tax-free.
const TEXAS = { street: "5 Elm St", city: "Austin", state: "tx", zipCode: "73301" };
const fillDetails = (page: Page, address?: Address) => fillCheckoutDetails(page, { address });

async function payWith(page: Page, cardNumber: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
}

/** With JavaScript: bag, address, rates by themselves, Process Order, then the card form. */
async function reachPaymentWithJs(page: Page, product: AdminProduct) {
  // Slow the rates down a little, so the "Calculating" indicator can be seen.
  await page.route("**/api/shipping/calculate", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await addToBag(page, JS, product);
  await page.goto("/checkout");
  await hydrated(page, JS);
  await expectVisible(page.getByRole("heading", { name: "Order Summary" }));
  await expectVisible(page.getByTestId("summary-line").filter({ hasText: product.name }));
  await fillDetails(page, TEXAS);
  await expectVisible(page.getByText("Calculating shipping rates..."), 4_000);
  await expectVisible(page.getByTestId("shipping-rate"));
  assert.equal(await page.locator('input[name="shippingMethod"]:checked').getAttribute("value"), "usps-ground_saver");
  // The tax line's rate is what is really charged on the goods: with the shipping taxed too, more
  // than Texas's 6.25 %.
  const taxTitle = page.getByText(/^Texas Sales Tax \(\d+\.\d%\)$/);
  await expectVisible(taxTitle);
  const cents = async (testId: string) => Math.round(Number((await page.getByTestId(testId).innerText()).replace(/[^\d.]/g, "")) * 100);
  const [subtotal, shipping, tax] = [await cents("summary-subtotal"), await cents("summary-shipping"), await cents("summary-tax")];
  const shownPercent = Number(/\((\d+\.\d)%\)/.exec(await taxTitle.innerText())?.[1]);
  assert.equal(shownPercent, Number(((tax / subtotal) * 100).toFixed(1)));
  assert.ok(tax > Math.round(subtotal * 0.0625), `the shipping is taxed: ${tax} cents on ${subtotal}`);
  assert.equal(await cents("summary-total"), subtotal + shipping + tax);
  // Process Order's total must be the one on screen: the card form repeats it below.
  const total = (await page.getByTestId("summary-total").innerText()).replace("USD", "").trim();
  await page.getByRole("button", { name: `Process Order - ${total}` }).click();
  await expectVisible(page.getByTestId("payment-form"));
  await expectVisible(page.getByTestId("hold-countdown").getByText(/Your items are reserved for \d+:\d\d/));
  await expectVisible(page.getByRole("button", { name: `Complete Order - ${total}` }));
  await expectVisible(page.getByTestId("test-mode").getByText("Test mode"));
}

describe("checkout with JavaScript", () => {
  test("address, rates, Process Order, the test card: paid, then home with an empty bag", async () => {
    const cap = await ownCap();
    const { page, problems } = await newPage({ ...JS, viewport: { width: 390, height: 844 } });
    await reachPaymentWithJs(page, cap);
    // The step comes into view once its card form is in: its heading in the top third of the phone's
    // screen, under the sticky header (as high as the page's end allows), not left low where the
    // page, shorter while the form loaded, had it.
    const headingTop = () => page.evaluate(() => document.getElementById("payment-title")?.getBoundingClientRect().top ?? null);
    await page
      .waitForFunction(
        () => {
          const top = document.getElementById("payment-title")?.getBoundingClientRect().top ?? -1;
          return top >= 60 && top <= 844 / 3;
        },
        null,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    const top = await headingTop();
    assert.ok(top !== null && top >= 60 && top <= 844 / 3, `"Payment" is brought to the top third of the screen: its top is at ${top}px`);
    await payWith(page, "4242 4242 4242 4242");
    await expectVisible(page.getByTestId("payment-success").getByText("Payment Successful!"));
    await expectVisible(page.getByText("Thank you for your purchase. You will receive a confirmation email shortly.").first());
    await page.waitForURL((url) => url.pathname === "/", { timeout: 5_000 });
    // The notice goes home with the buyer: a toast raised on a page closes when the shopper leaves
    // it, unless the page sent them on. Looked at a moment after arriving, when a closing would show.
    await page.waitForTimeout(500);
    const notice = page.locator("[data-sonner-toast][data-removed=false]").filter({ hasText: "Payment Successful!" });
    assert.equal(await notice.count(), 1, "the payment's notice is still up at home");
    assert.equal(await badge(page), "0");
    assert.deepEqual(problems, []);
  });

  test("Process Order posts the page's own action, once however often it is pressed, and never /api/process-order", async () => {
    const cap = await ownCap();
    const email = uniqueEmail("e2e-double-click");
    const { page, problems } = await newPage(JS);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    await addToBag(page, JS, cap);
    await page.goto("/checkout");
    await hydrated(page, JS);
    await fillCheckoutDetails(page, { email });
    await expectVisible(page.getByTestId("shipping-rate"));
    // The worst double click: both presses in one task, before the page can render or await anything.
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expectVisible(page.getByTestId("payment-form"));
    assert.deepEqual(
      posts.filter((path) => path.startsWith("/checkout") || path.startsWith("/api/process-order")),
      ["/checkout.data"],
    );
    const { orders } = (await (await (await adminApi()).get("/api/admin/orders")).json()) as { orders: { customerEmail: string }[] };
    assert.equal(orders.filter((order) => order.customerEmail === email).length, 1, "one order for the buyer");
    // The shopper coming back to this window looks at the bag again (issue 25), before paying.
    const looked = page.waitForRequest((request) => request.method() === "GET" && new URL(request.url()).pathname === "/checkout.data");
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await looked;
    await payWith(page, "4242 4242 4242 4242");
    await expectVisible(page.getByTestId("payment-success"));
    assert.deepEqual(problems, []);
  });

  test("a declined card says so, and the order can still be paid", async () => {
    const cap = await ownCap();
    const { page, problems } = await newPage(JS);
    await reachPaymentWithJs(page, cap);
    await payWith(page, "4000 0000 0000 0002");
    const error = page.getByTestId("payment-error");
    await expectVisible(error.getByText("Payment Failed"));
    await expectVisible(error.getByText("Your card was declined."));
    await payWith(page, "4242 4242 4242 4242");
    await expectVisible(page.getByTestId("payment-success"));
    // The browser logs the decline's 402 answer itself; nothing else may go wrong.
    assert.deepEqual(
      problems.filter((p) => !p.includes("status of 402")),
      [],
    );
  });

  test("Process Order with fields missing says 'Missing information'", async () => {
    const cap = await ownCap();
    const { page } = await newPage(JS);
    await addToBag(page, JS, cap);
    await page.goto("/checkout");
    await hydrated(page, JS);
    await page.getByRole("button", { name: /^Process Order - / }).click();
    await expectVisible(page.getByText("Missing information"));
    await expectVisible(page.getByText("Please fill in all required fields and select a shipping method."));
  });

  test("the Purchase Disclaimer opens as a dialog", async () => {
    const cap = await ownCap();
    const { page } = await newPage(JS);
    await addToBag(page, JS, cap);
    await page.goto("/checkout");
    await hydrated(page, JS);
    await page.getByRole("button", { name: "Purchase Disclaimer" }).click();
    const dialog = page.getByRole("dialog", { name: "Purchase Disclaimer" });
    await expectSettled(dialog);
    for (const part of ["No Refunds Policy", "Quality Guarantee", "Limited Edition", "Contact Support"])
      await expectVisible(dialog.getByText(part));
    await dialog.getByRole("button", { name: "Close" }).last().click();
    await dialog.waitFor({ state: "detached" });
  });
});

describe("checkout without JavaScript", () => {
  test("rates, process, the payment page and /checkout-success", async () => {
    const cap = await ownCap();
    const { page, problems } = await newPage(NO_JS);
    await addToBag(page, NO_JS, cap);
    await page.goto("/checkout");
    await fillDetails(page);
    await page.getByRole("button", { name: "Calculate shipping" }).click();
    await expectVisible(page.getByTestId("shipping-rate"));
    assert.equal(await page.locator('input[name="shippingMethod"]:checked').getAttribute("value"), "usps-ground_saver");
    assert.equal(await page.getByTestId("summary-tax").count(), 0, "a cap under $110 is tax-free in New York");
    assert.equal(await page.getByLabel("Street address").inputValue(), "350 5th Ave");
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();
    await page.waitForURL(/\/checkout\/pay\/pi_/);
    await expectVisible(page.getByTestId("hold-countdown"));
    await expectVisible(page.getByTestId("test-mode"));

    await payWith(page, "4000 0000 0000 0002");
    await expectVisible(page.getByTestId("payment-error").getByText("Your card was declined."));
    await payWith(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/checkout-success\?payment_intent=pi_/);
    await expectVisible(page.getByRole("heading", { name: "Payment Successful!" }));
    await expectVisible(page.getByTestId("order-number").getByText(/^#[0-9A-F]{8}$/));
    assert.equal(await badge(page), "0");
    assert.deepEqual(
      problems.filter((p) => !p.includes("status of 402")),
      [],
    );
  });

  test("the Purchase Disclaimer can be read", async () => {
    const cap = await ownCap();
    const { page } = await newPage(NO_JS);
    await addToBag(page, NO_JS, cap);
    await page.goto("/checkout");
    await page.getByRole("link", { name: "Purchase Disclaimer" }).click();
    await expectVisible(page.locator("#purchase-disclaimer").getByText("No Refunds Policy"));
  });
});

for (const mode of [JS, NO_JS]) {
  test(`an empty bag at /checkout goes home with 'Cart is empty' (${mode.javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
    const { page } = await newPage(mode);
    await page.goto("/checkout");
    await page.waitForURL((url) => url.pathname === "/");
    await expectVisible(page.getByText("Cart is empty"));
    await expectVisible(page.getByText("Add some items to your cart before checking out."));
  });
}
