// A draw in the browser (issue 26, decision 0047): an entrant enters on the product page, confirms
// from the e-mailed link and sees the receipt; after the close the admin draws; the winner opens
// the link to buy and pays through the usual checkout, with and without JavaScript.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ADMIN, expectVisible, fillCheckoutDetails, MODES, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, uniqueEmail, uniqueName } from "./support/data";

const SHOTS = process.env.E2E_SHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** The first link matching `pattern` in the newest message to `email`, read in the admin's outbox. */
async function linkInMail(admin: Page, email: string, pattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    await admin.goto(`/admin/outbox?q=${encodeURIComponent(email)}`);
    const rows = admin.getByTestId("outbox-row");
    if ((await rows.count()) > 0) {
      await rows.first().click();
      await admin.waitForURL((url) => url.searchParams.has("id"));
      const text = (await admin.getByTestId("outbox-text").textContent()) ?? "";
      const found = pattern.exec(text)?.[0];
      if (found) return found;
    }
    await admin.waitForTimeout(500);
  }
  throw new Error(`No mail to ${email} with ${pattern}`);
}

const until = (iso: string) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(iso) - Date.now() + 300)));

for (const mode of MODES) {
  test(`an entrant enters, confirms, wins and pays (${mode.name})`, async () => {
    const tag = mode.javaScriptEnabled ? "js" : "nojs";
    const api = await adminApi();
    const product = await createProduct(api, { name: uniqueName("E2E Draw Jacket"), price: 120, inventory: 1 });
    const entriesOpenAt = new Date(Date.now() + 3_000).toISOString();
    const entriesCloseAt = new Date(Date.now() + 45_000).toISOString();
    const made = await api.post("/api/admin/draws", { data: { productId: product.id, entriesOpenAt, entriesCloseAt, claimMinutes: 30 } });
    assert.equal(made.status(), 201);
    const draw = (await made.json()) as { id: number; commitment: string };
    const email = uniqueEmail("e2e-draw");
    await until(entriesOpenAt);

    const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });
    await page.goto(`/store/${product.id}`);
    await expectVisible(page.getByTestId("draw-panel"));
    assert.equal(await page.getByRole("button", { name: "Add To Bag" }).count(), 0);
    await expectVisible(page.getByText("Entries are open"));
    await shot(page, `draw-panel-390-${tag}`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Enter the draw" }).click();
    await expectVisible(page.getByTestId("draw-entered").getByText("Check your e-mail to confirm your entry."));

    const admin = (await newPage({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } })).page;
    await signIn(admin, ADMIN);
    await admin.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.includes("login"));
    const confirmUrl = await linkInMail(admin, email, /https?:\/\/\S+\/draws\/\d+\/confirm\/[\w.-]+/);
    await page.goto(confirmUrl);
    await expectVisible(page.getByRole("heading", { name: "Confirm your entry" }));
    await page.getByRole("button", { name: "Confirm my entry" }).click();
    await expectVisible(page.getByTestId("draw-receipt").getByText("Your receipt: entry number 1"));
    await shot(page, `draw-receipt-390-${tag}`);

    await until(entriesCloseAt);
    const drawn = await api.post(`/api/admin/draws/${draw.id}/draw`, { data: { beacon: "e2e" } });
    // The sweeper (every 30 s) may have drawn it in the moment since the close: either way it is drawn.
    if (drawn.status() !== 200)
      assert.deepEqual([drawn.status(), ((await drawn.json()) as { message: string }).message], [409, "This draw has been drawn."]);
    const claimUrl = await linkInMail(admin, email, /https?:\/\/\S+\/draws\/\d+\/claim\/[\w.-]+/);

    await page.goto(claimUrl);
    await expectVisible(page.getByRole("heading", { name: "You were picked" }));
    await shot(page, `draw-claim-390-${tag}`);
    await page.getByRole("button", { name: "Buy it now" }).click();
    await page.waitForURL((url) => url.pathname === "/checkout");
    if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
    await fillCheckoutDetails(page, { email });
    if (!mode.javaScriptEnabled) await page.getByRole("button", { name: "Calculate shipping" }).click();
    await expectVisible(page.getByTestId("shipping-rate"));
    await page.getByRole("button", { name: /^Process Order - \$\d/ }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: /^Complete Order - \$\d/ }).click();
    if (mode.javaScriptEnabled) await expectVisible(page.getByTestId("payment-success").getByText("Payment Successful!"));
    else await expectVisible(page.getByRole("heading", { name: "Payment Successful!" }));

    // The proof is public and holds the one entry.
    const proof = (await (await api.get(`/api/draws/${draw.id}/proof`)).json()) as { commitment: string; winners: number[] };
    assert.equal(proof.commitment, draw.commitment);
    assert.deepEqual(proof.winners, [1]);
    assert.deepEqual(problems, []);
  });
}
