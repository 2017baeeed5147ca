// Early access (issue 12 part 2, decision 0020), limits (part 3) and the honeypot (part 4) in the
// browser: a subscriber opens their early-access link, enters the drop, finds the restricted
// product, meets the limit of one in the bag and buys it, with and without JavaScript; the same link
// in a second browser is refused and shows that browser nothing.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { expectVisible, fillCheckoutDetails, MODES, newContext, newPage, test, type Mode } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName } from "./support/data";

const SHOTS = process.env.E2E_SHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** A restricted drop released in ten minutes (inside the 30-minute window), one per customer, and a subscriber's link to it. */
async function dropAndLink(): Promise<{ drop: AdminProduct; url: string }> {
  const api = await adminApi();
  const drop = await createProduct(api, {
    name: uniqueName("E2E Early Parka"),
    price: 90,
    inventory: 5,
    maxPerCustomer: 1,
    isCountdownRestricted: true,
    countdownReleaseDate: new Date(Date.now() + 10 * 60_000).toISOString(),
  });
  const email = uniqueEmail("e2e-early");
  const visitor = (await newContext({ javaScriptEnabled: false })).request;
  assert.equal((await visitor.post("/api/subscribe", { data: { email } })).status(), 201);
  const made = await api.post("/api/admin/early-access", { data: { email } });
  assert.equal(made.status(), 201);
  return { drop, url: ((await made.json()) as { url: string }).url };
}

const card = (page: Page, drop: AdminProduct) => page.getByTestId("product-card").filter({ hasText: drop.name });

async function hydrated(page: Page, mode: Mode) {
  if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

for (const mode of MODES) {
  test(`an early-access link opens the drop for one browser, which buys it (${mode.name})`, async () => {
    const { drop, url } = await dropAndLink();
    const tag = mode.javaScriptEnabled ? "js" : "nojs";
    const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });

    // Before: the drop does not exist for this browser.
    await page.goto("/store");
    assert.equal(await card(page, drop).count(), 0);

    await page.goto(url);
    await expectVisible(page.getByRole("heading", { name: "You're in early" }));
    await shot(page, `early-ready-390-${tag}`);
    await page.getByRole("button", { name: "Enter the drop" }).click();
    await page.waitForURL((u) => u.pathname === "/store");
    await card(page, drop).click();
    await page.waitForURL(/\/store\/\d+$/);
    await hydrated(page, mode);
    await page.getByRole("button", { name: "Add To Bag" }).click();
    if (mode.javaScriptEnabled) await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
    else await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));

    // The bag stops at the limit of one.
    await page.goto("/cart");
    await hydrated(page, mode);
    await expectVisible(page.getByTestId("line-limit").getByText("Limit 1 per customer"));
    assert.equal(await page.getByRole("button", { name: `Increase quantity of ${drop.name}` }).isDisabled(), true);
    await shot(page, `early-cart-390-${tag}`);

    // Buy it.
    await page.goto("/checkout");
    await hydrated(page, mode);
    await fillCheckoutDetails(page, { email: uniqueEmail("e2e-early-buyer") });
    if (!mode.javaScriptEnabled) await page.getByRole("button", { name: "Calculate shipping" }).click();
    await expectVisible(page.getByTestId("shipping-rate"));
    await shot(page, `early-checkout-390-${tag}`);
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
    if (mode.javaScriptEnabled) await expectVisible(page.getByTestId("payment-success").getByText("Payment Successful!"));
    else await expectVisible(page.getByRole("heading", { name: "Payment Successful!" }));

    // The same link in another browser: refused, and that browser sees no drop.
    const other = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    await other.page.goto(url);
    await expectVisible(other.page.getByText("This early-access link has already been used."));
    await shot(other.page, `early-used-1280-${tag}`);
    await other.page.goto("/store");
    await expectVisible(other.page.getByRole("heading", { name: "The Drop" }));
    assert.equal(await card(other.page, drop).count(), 0);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      other.problems.filter((p) => !p.includes("status of 410")),
      [],
    );
  });
}
