// The buyer's order page (issue 25), on a phone: from the payment to the order page. (The "Find my
// order" walk through the e-mailed link is not here yet: tests/integration/order-lookup.test.ts
// covers the form and the e-mail.)
import assert from "node:assert/strict";
import type { AdminProduct } from "#server/contracts/admin-products";
import { describe, expectVisible, fillCheckoutDetails, newPage, test } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName } from "./support/data";

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
