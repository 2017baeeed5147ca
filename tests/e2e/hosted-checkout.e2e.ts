// Stripe configured, JavaScript off: the buyer pays on Stripe's hosted Checkout and comes back to
// /checkout-success. This file starts its own store in Stripe mode (the shared one runs the local
// test processor); Stripe's API is msw inside that process and its payment page a stand-in
// (tests/e2e/support/fake-stripe.ts), so nothing leaves the machine.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { describe, expectVisible, fillCheckoutDetails, newPage, test } from "./browser";
import { adminApi, createProduct, uniqueName } from "./support/data";
import { freePort, startStore, type StoreProcess } from "./support/store-process";

const ADMIN = { username: "e2e-hosted-admin", password: "e2e-hosted-password" };
let store: StoreProcess | undefined;
let baseURL: string;
let stripePort: number;

before(async () => {
  stripePort = await freePort();
  store = await startStore({
    name: "e2e-hosted",
    nodeArgs: ["--import", "tsx", "--import", "./tests/e2e/support/fake-stripe.ts"],
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      STRIPE_SECRET_KEY: "sk_test_e2e_hosted",
      STRIPE_PUBLISHABLE_KEY: "pk_test_e2e_hosted",
      STRIPE_WEBHOOK_SECRET: "whsec_e2e_hosted",
      FAKE_STRIPE_PORT: String(stripePort),
      CHECKOUTS_PER_IP: "1000",
    },
  });
  baseURL = store.baseUrl;
});

after(() => store?.stop());

describe("Stripe's hosted Checkout without JavaScript", () => {
  test("the pay page sends the buyer to Stripe's page for the order's total; paying there lands on Payment Successful!", async () => {
    const cap = await createProduct(await adminApi({ baseURL, ...ADMIN }), {
      name: uniqueName("E2E Six-Panel Cap"),
      price: 32,
      weight: 0.3,
    });
    const { page, problems } = await newPage({ javaScriptEnabled: false, baseURL, allowHosts: ["checkout.stripe.com"] });
    // Stripe's page is played by the stand-in on this machine.
    await page.route("https://checkout.stripe.com/**", (route) =>
      route.fulfill({ status: 302, headers: { Location: `http://127.0.0.1:${stripePort}${new URL(route.request().url()).pathname}` } }),
    );

    await page.goto("/store");
    await page.getByTestId("product-card").filter({ hasText: cap.name }).click();
    await page.getByRole("button", { name: "Add To Bag" }).click();
    await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));
    await page.goto("/checkout");
    await fillCheckoutDetails(page, { email: "hosted-buyer@example.com", name: "Hana Hosted" });
    await page.getByRole("button", { name: "Calculate shipping" }).click();
    await expectVisible(page.getByTestId("shipping-rate"));
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();
    await page.waitForURL(/\/checkout\/pay\/pi_/);

    // No card form of ours in Stripe mode: the button names Stripe and the total.
    await expectVisible(page.getByTestId("hold-countdown"));
    assert.equal(await page.getByLabel("Card number").count(), 0);
    const pay = page.getByRole("button", { name: /^Pay on Stripe - \$\d+\.\d{2}$/ });
    await expectVisible(pay);
    const total = /\$\d+\.\d{2}/.exec(await pay.innerText())?.[0];
    assert.ok(total, "the button names the total");

    await pay.click();
    await page.waitForURL(new RegExp(`^http://127\\.0\\.0\\.1:${stripePort}/c/pay/cs_test_`));
    await expectVisible(page.getByRole("heading", { name: `Pay ${total}` }));
    await expectVisible(page.getByTestId("stripe-email").getByText("hosted-buyer@example.com"));

    await page.getByRole("button", { name: "Pay" }).click();
    // Stripe returns to ?session_id=…; the store confirms, then shows the outcome by the payment.
    await page.waitForURL(/\/checkout-success\?payment_intent=pi_/);
    await expectVisible(page.getByRole("heading", { name: "Payment Successful!" }));
    await expectVisible(page.getByTestId("order-number").getByText(/^#[0-9A-Z]{8}$/));
    assert.equal(await page.getByTestId("cart-count").count(), 0);
    // Reloading the outcome changes nothing.
    await page.reload();
    await expectVisible(page.getByRole("heading", { name: "Payment Successful!" }));
    assert.deepEqual(problems, []);
  });
});
