// The buyer's order page (issue 25), on a phone: from the payment to the order page, and from the
// "Find my order" form through the e-mailed link (read in the local outbox, as an admin sees it).
import assert from "node:assert/strict";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, describe, expectVisible, fillCheckoutDetails, MODES, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, newBuyer, placeOrder, uniqueEmail, uniqueName } from "./support/data";

const PHONE = { width: 390, height: 844 };

async function ownTee(): Promise<AdminProduct> {
  return createProduct(await adminApi(), {
    name: uniqueName("E2E Order Tee"),
    price: 28,
    inventory: 10,
    weight: 0.4,
    availableColors: ["Black"],
  });
}

/** The order page's link from the newest e-mail to `email` with `subject` in the outbox. */
async function linkFromOutbox(email: string, subject: string): Promise<string> {
  // The admin reads the outbox at a desk.
  const { page } = await newPage();
  await signIn(page, ADMIN);
  await page.goto(`/admin/outbox?q=${encodeURIComponent(email)}`);
  await page.getByTestId("outbox-row").filter({ hasText: subject }).first().click();
  await page.waitForURL((url) => url.searchParams.has("id"));
  const text = (await page.getByTestId("outbox-text").textContent()) ?? "";
  const link = /View your order: (\S+)/.exec(text)?.[1];
  assert.ok(link, `the e-mail links to the order page:\n${text}`);
  return link;
}

for (const mode of MODES) {
  describe(`the order page on a phone ${mode.name}`, () => {
    test("Find my order: the form, the e-mailed link, the order page", async () => {
      const tee = await ownTee();
      const buyer = newBuyer("Fran Finder");
      const { orderNumber } = await placeOrder(tee.id, { buyer });
      const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: PHONE });
      await page.goto("/orders");
      await expectVisible(page.getByRole("heading", { name: "Find my order" }));
      await page.getByLabel("Email").fill(buyer.email.toUpperCase());
      await page.getByLabel("Order number").fill(`#${orderNumber}`);
      await page.getByRole("button", { name: "E-mail me the link" }).click();
      await expectVisible(page.getByTestId("lookup-sent").getByText("If that order exists, we've e-mailed a link to it."));

      // A made-up order gets the very same answer.
      await page.getByLabel("Email").fill(uniqueEmail("nobody"));
      await page.getByLabel("Order number").fill("ZZZZ0000");
      await page.getByRole("button", { name: "E-mail me the link" }).click();
      await expectVisible(page.getByTestId("lookup-sent").getByText("If that order exists, we've e-mailed a link to it."));

      const link = await linkFromOutbox(buyer.email, "Your order link");
      await page.goto(new URL(link).pathname);
      await expectVisible(page.getByTestId("order-number").getByText(`#${orderNumber}`));
      await expectVisible(page.getByTestId("order-line").getByText(tee.name));
      await expectVisible(page.getByTestId("order-address").getByText("3•• 5•• Ave"));
      await expectVisible(page.getByTestId("order-timeline").getByText("Paid"));
      const help = page.getByTestId("order-help");
      assert.equal(await help.getAttribute("href"), `/support?orderNumber=${orderNumber}`);
      const noindex = await page.locator('meta[name="robots"]').getAttribute("content");
      assert.equal(noindex, "noindex");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `no sideways scrolling on a phone (${width}px)`);

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

describe("from the payment to the order page without JavaScript, on a phone", () => {
  test("pay, then View your order on /checkout-success", async () => {
    const tee = await ownTee();
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
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
    await page.waitForURL(/\/checkout-success\?payment_intent=pi_/);
    const number = ((await page.getByTestId("order-number").textContent()) ?? "").trim();
    await page.getByRole("link", { name: "View your order" }).click();
    await page.waitForURL(/\/orders\/[\w-]{43}$/);
    await expectVisible(page.getByTestId("order-number").getByText(number));
    await expectVisible(page.getByTestId("order-line").getByText(tee.name));
    assert.deepEqual(problems, []);
  });
});
