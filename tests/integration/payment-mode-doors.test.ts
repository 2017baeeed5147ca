import { describe, expect, it } from "vitest";
import * as checkoutPage from "#app/routes/checkout";
import { useAppContextForTests } from "#server/boot";
import type { CheckoutLoaderData } from "#server/contracts/checkout-page";
import { createTestContext, type TestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

// Every door reads the one payment mode of the configuration: the checkout never shows one
// processor's card form and posts it to a door of the other.
const testMode = createTestContext();
const stripeMode = createTestContext({ STRIPE_SECRET_KEY: "sk_test_doors", STRIPE_PUBLISHABLE_KEY: "pk_test_doors" });

async function checkoutPayment(ctx: TestContext) {
  const productId = await addProduct(ctx, { name: "Mode Tee" });
  const jar = new CookieJar();
  await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar });
  const page = await runRoute<CheckoutLoaderData>(checkoutPage.loader, { path: "/checkout", jar });
  expect(page.status).toBe(200);
  return page.data.payment;
}

const localConfirm = () =>
  api("POST", "/api/local-payments/confirm", { body: { clientSecret: "pi_local_x_secret_y", cardNumber: "4242424242424242" } });
const webhook = () => api("POST", "/api/webhooks/stripe", { body: "{}" });

describe("the payment mode at the doors", () => {
  it("test mode: the checkout shows the local card form and the local door takes it; Stripe's webhook is off", async () => {
    useAppContextForTests(testMode);
    expect(await checkoutPayment(testMode)).toEqual({ mode: "test" });
    // The door is there: an unknown payment is a 404 about the payment, not about the door.
    const confirm = await localConfirm();
    expect(confirm.status).toBe(404);
    expect((await confirm.json()).message).toBe("Payment not found.");
    const hook = await webhook();
    expect(hook.status).toBe(404);
    expect((await hook.json()).message).toBe("Stripe webhooks are not configured.");
  });

  it("Stripe mode: the checkout loads Stripe with the publishable key and the local door is closed", async () => {
    useAppContextForTests(stripeMode);
    expect(await checkoutPayment(stripeMode)).toEqual({ mode: "stripe", publishableKey: "pk_test_doors" });
    const confirm = await localConfirm();
    expect(confirm.status).toBe(404);
    expect((await confirm.json()).message).toBe("The local test processor is off: payments go through Stripe.");
    // No STRIPE_WEBHOOK_SECRET: the webhook cannot verify a signature, so it is not there.
    expect((await webhook()).status).toBe(404);
  });
});
