// The buyer's order page (issue 25), on a phone (390 px), with and without JavaScript: from the
// payment to the order page (with JavaScript, two buyers paying at once, each notice linking to
// its own order), and from the "Find my order" form through the e-mailed link, read in the local
// outbox, to the order page and its "Need help with this order?" with the number filled in.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { describe, expectVisible, fillCheckoutDetails, MODES, newPage, test, type Mode } from "./browser";
import { adminApi, createProduct, newBuyer, placeOrder, uniqueEmail, uniqueName } from "./support/data";
import { findInOutbox, outboxReader } from "./support/outbox";

const PHONE = { width: 390, height: 844 };
const SENT = "If that order exists, we've e-mailed a link to it.";

async function ownTee(): Promise<AdminProduct> {
  return createProduct(await adminApi(), {
    name: uniqueName("E2E Order Tee"),
    price: 28,
    inventory: 10,
    weight: 0.4,
    availableColors: ["Black"],
  });
}

async function hydrated(page: Page, mode: Pick<Mode, "javaScriptEnabled">) {
  if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

async function payWithTestCard(page: Page) {
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
}

/** The order page's "Need help with this order?": /support with the number filled in, "Order Issues" chosen. */
async function askForHelp(page: Page, mode: Mode, orderNumber: string) {
  const help = page.getByRole("link", { name: "Need help with this order?" });
  assert.equal(await help.getAttribute("href"), `/support?orderNumber=${orderNumber}`);
  await help.click();
  await page.waitForURL((url) => url.pathname === "/support");
  await hydrated(page, mode);
  await expectVisible(page.getByRole("heading", { name: "Get Support" }));
  assert.equal(await page.getByLabel("Order number (optional)").inputValue(), orderNumber);
  assert.equal(await page.getByLabel("What is it about?").inputValue(), "order");
}

describe("from the payment to the order page without JavaScript, on a phone", () => {
  test("pay, then View your order on /checkout-success, then Need help with this order?", async () => {
    const tee = await ownTee();
    const mode = MODES.find((m) => !m.javaScriptEnabled)!;
    const { page, problems } = await newPage({ javaScriptEnabled: false, viewport: PHONE });
    await page.goto(`/store/${tee.id}`);
    await page.getByRole("button", { name: "Add To Bag" }).click();
    await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));
    await page.goto("/checkout");
    await fillCheckoutDetails(page, { email: uniqueEmail("e2e-payer") });
    await page.getByRole("button", { name: "Calculate shipping" }).click();
    await expectVisible(page.getByTestId("shipping-rate"));
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();
    await page.waitForURL(/\/checkout\/pay\/pi_/);
    await payWithTestCard(page);
    await page.waitForURL(/\/checkout-success\?payment_intent=pi_/);
    const number = ((await page.getByTestId("order-number").textContent()) ?? "").trim();
    await page.getByRole("link", { name: "View your order" }).click();
    await page.waitForURL(/\/orders\/[\w-]{43}$/);
    await expectVisible(page.getByTestId("order-number").getByText(number));
    await expectVisible(page.getByTestId("order-line").getByText(tee.name));
    await askForHelp(page, mode, number.replace(/^#/, ""));
    assert.deepEqual(problems, []);
  });
});

/** With JavaScript on a phone: bag, checkout, the test card; back to the order number the page showed. */
async function buyWithJs(tee: AdminProduct): Promise<{ page: Page; number: string; problems: string[] }> {
  const js = { javaScriptEnabled: true };
  const { page, problems } = await newPage({ ...js, viewport: PHONE });
  await page.goto(`/store/${tee.id}`);
  await hydrated(page, js);
  await page.getByRole("button", { name: "Add To Bag" }).click();
  await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
  await page.goto("/checkout");
  await hydrated(page, js);
  await fillCheckoutDetails(page, { email: uniqueEmail("e2e-js-payer") });
  await expectVisible(page.getByTestId("shipping-rate"));
  await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();
  await expectVisible(page.getByTestId("payment-form"));
  await payWithTestCard(page);
  const number = ((await page.getByTestId("paid-order-number").textContent({ timeout: 10_000 })) ?? "").trim();
  assert.match(number, /^#[A-Z0-9]{8}$/);
  return { page, number, problems };
}

describe("from the payment to the order page with JavaScript, on a phone", () => {
  test("two buyers pay at once: the notice that follows each home names their order and opens it", async () => {
    const tee = await ownTee();
    const buyers = await Promise.all([buyWithJs(tee), buyWithJs(tee)]);
    assert.notEqual(buyers[0].number, buyers[1].number);
    await Promise.all(
      buyers.map(async ({ page, number }) => {
        await page.waitForURL((url) => url.pathname === "/", { timeout: 5_000 });
        const notice = page.locator("[data-sonner-toast][data-removed=false]").filter({ hasText: "Payment Successful!" });
        await expectVisible(notice.getByText(number));
        await expectVisible(notice.getByText("Thank you for your purchase. You will receive a confirmation email shortly."));
        await notice.getByRole("link", { name: "View your order" }).click();
        await page.waitForURL(/\/orders\/[\w-]{43}$/);
        await expectVisible(page.getByTestId("order-number").getByText(number));
        await expectVisible(page.getByTestId("order-line").getByText(tee.name));
        // The notice goes with the click: it does not lie over the order it opened.
        await notice.first().waitFor({ state: "detached", timeout: 3_000 });
      }),
    );
    const width = await buyers[0].page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `no sideways scrolling on a phone (${width}px)`);
    for (const { problems } of buyers) assert.deepEqual(problems, []);
  });
});

for (const mode of MODES) {
  describe(`Find my order on a phone ${mode.name}`, () => {
    test("the form, the e-mailed link, the order page and its help link", async () => {
      const tee = await ownTee();
      const buyer = newBuyer("Fran Finder");
      const { orderNumber } = await placeOrder(tee.id, { buyer });
      const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: PHONE });
      await page.goto("/orders");
      await hydrated(page, mode);
      await expectVisible(page.getByRole("heading", { name: "Find my order" }));
      await page.getByLabel("Email").fill(buyer.email.toUpperCase());
      await page.getByLabel("Order number").fill(`#${orderNumber}`);
      await page.getByRole("button", { name: "E-mail me the link" }).click();
      await expectVisible(page.getByTestId("lookup-sent").getByText(SENT));

      // A made-up order gets the very same answer.
      const nobody = uniqueEmail("nobody");
      await page.getByLabel("Email").fill(nobody);
      await page.getByLabel("Order number").fill("ZZZZ0000");
      const answered = page.waitForResponse((response) => response.request().method() === "POST");
      await page.getByRole("button", { name: "E-mail me the link" }).click();
      await answered;
      await expectVisible(page.getByTestId("lookup-sent").getByText(SENT));

      const admin = await outboxReader();
      const link = await findInOutbox(admin, buyer.email, "Your order link", /View your order: (\S+)/);
      await admin.goto(`/admin/outbox?q=${encodeURIComponent(nobody)}`);
      assert.equal(await admin.getByTestId("outbox-row").count(), 0, "a made-up order e-mails nobody");

      await page.goto(new URL(link).pathname);
      await hydrated(page, mode);
      await expectVisible(page.getByTestId("order-number").getByText(`#${orderNumber}`));
      await expectVisible(page.getByTestId("order-line").getByText(tee.name));
      await expectVisible(page.getByTestId("order-address").getByText("3•• 5•• Ave"));
      await expectVisible(page.getByTestId("order-timeline").getByText("Paid"));
      assert.equal(await page.locator('meta[name="robots"]').getAttribute("content"), "noindex");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `no sideways scrolling on a phone (${width}px)`);
      await askForHelp(page, mode, orderNumber);

      // A tampered link opens nothing.
      const token = new URL(link).pathname.split("/").pop()!;
      const tampered = await page.goto(`/orders/${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`);
      assert.equal(tampered?.status(), 404);
      assert.deepEqual(
        problems.filter((p) => !p.includes("404")),
        [],
      );
    });
  });
}
