import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, describe, expectSettled, expectVisible, newPage, onCleanup, signIn, test } from "./browser";
import { adminApi, type Buyer, createProduct, newBuyer, placeOrder, uniqueName, uniqueToken } from "./support/data";
import { startStore } from "./support/store-process";

/** A cap of the test's own: in stock, visible, no countdown. */
async function ownCap(): Promise<AdminProduct> {
  return createProduct(await adminApi(), {
    name: uniqueName("E2E Six-Panel Cap"),
    price: 32,
    inventory: 10,
    weight: 0.3,
    availableColors: ["Black"],
  });
}

/** The number in "Orders (12)". */
const countIn = (heading: string) => Number(/\((\d+)\)/.exec(heading)?.[1] ?? Number.NaN);

/** Buys the product through the store in the browser: bag, /checkout, a NY address, the test card. */
async function buyThroughCheckout(page: Page, product: AdminProduct, buyer: Buyer) {
  await page.goto("/store");
  await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
  await page.getByTestId("product-card").filter({ hasText: product.name }).click();
  await page.waitForURL(/\/store\/\d+$/);
  await page.getByRole("button", { name: "Add To Bag" }).click();
  await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
  await page.goto("/checkout");
  await page.getByLabel("Email").fill(buyer.email);
  await page.getByLabel("Full name").fill(buyer.name);
  await page.getByLabel("Street address").fill(buyer.street);
  await page.getByLabel("City").fill(buyer.city);
  await page.getByLabel("State").fill(buyer.state);
  await page.getByLabel("ZIP / Postal code").fill(buyer.zipCode);
  await expectVisible(page.getByTestId("shipping-rate"), 10_000);
  await page.getByTestId("process-order").click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Complete Order/ }).click();
  const success = page.getByTestId("payment-success");
  await expectVisible(success, 10_000);
  return (await success.innerText()).match(/#([A-Z0-9]+)/)?.[1];
}

/** docs/spec.md §2: the Orders row of one order, found by its order number. */
const rowOf = (page: Page, orderNumber: string) => page.getByTestId("order-row").filter({ hasText: orderNumber });

describe("admin orders with JavaScript", () => {
  test("a bought order is shipped, viewed with its label, refunded without shipping, and shows in the history", async () => {
    const cap = await ownCap();
    const buyer = newBuyer("Olga Orders");
    const shopper = await newPage({ javaScriptEnabled: true });
    const orderNumber = (await buyThroughCheckout(shopper.page, cap, buyer)) ?? "";
    assert.match(orderNumber, /^[A-Z0-9]{8}$/, "the success notice shows the order number");
    assert.deepEqual(shopper.problems, []);
    await shopper.context.close();

    const { page, context, problems } = await newPage({ javaScriptEnabled: true });
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname === "/admin");
    // Signing in is admin-auth.e2e's subject; from here on, this page must stay free of errors.
    problems.length = 0;
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Orders", exact: true }).click();
    await page.waitForURL("**/admin/orders");
    await expectVisible(page.getByRole("heading", { name: /^Orders \(\d+\)$/ }));
    for (const column of ["Order ID", "Customer", "Status", "Total", "Date", "Actions"]) {
      await expectVisible(page.getByRole("columnheader", { name: column, exact: true }));
    }
    const scroller = page.getByTestId("orders-scroll");
    assert.equal(await scroller.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).maxHeight), "600px");

    // The paid order stays under "Paid" and leaves the list under "Unpaid".
    const filters = page.getByRole("navigation", { name: "Show orders" });
    await filters.getByRole("link", { name: /^Unpaid/ }).click();
    await page.waitForURL(/show=unpaid/);
    await rowOf(page, orderNumber).waitFor({ state: "detached" });
    await filters.getByRole("link", { name: /^Paid/ }).click();
    await page.waitForURL(/show=paid/);
    const row = rowOf(page, orderNumber);
    await expectVisible(row.getByText(buyer.name));
    await expectVisible(row.getByText(buyer.email));

    // Status: the dropdown is disabled while the update is pending, then the change is kept.
    const select = row.getByRole("combobox", { name: `Status of order ${orderNumber}` });
    await select.locator(":scope:not([disabled])").waitFor();
    assert.equal(await select.inputValue(), "processing");
    await select.selectOption("shipped");
    await expectVisible(page.getByText("Status updated").first());
    await page.reload();
    assert.equal(await rowOf(page, orderNumber).getByRole("combobox").inputValue(), "shipped");

    // View: the address, the item and the shipping label.
    await rowOf(page, orderNumber)
      .getByRole("button", { name: `View order ${orderNumber}` })
      .click();
    const detail = page.getByRole("dialog", { name: `Order ${orderNumber}` });
    await expectVisible(detail.getByTestId("shipping-address").getByText(/New York, NY 10001/));
    await expectVisible(detail.getByText(cap.name));
    const label = detail.getByTestId("shipping-label");
    await expectVisible(label.getByText("created", { exact: true }));
    await expectVisible(label.getByText("Tracking number"));
    const href = await label.getByRole("link", { name: /View shipping label/ }).getAttribute("href");
    assert.ok(href, "the label link has an address");
    const pdf = await context.request.get(href);
    assert.equal(pdf.headers()["content-type"], "application/pdf");
    await expectVisible(detail.getByText("No refunds."));

    // Refund without shipping: a blank reason is refused, then confirm.
    await detail.getByRole("button", { name: "Process Refund" }).click();
    const refund = page.getByRole("dialog", { name: "Process Refund" });
    await expectSettled(refund);
    await expectVisible(refund.getByText("This order can be refunded."));
    const amount = (await refund.getByTestId("refund-amount").innerText()).trim();
    await refund.getByRole("button", { name: "Process Refund" }).click();
    await expectVisible(page.getByText("Reason Required").first());
    await expectVisible(refund.getByText("Please provide a reason for the refund").first());
    await refund.getByLabel("Reason for refund").fill("Arrived with a broken clasp");
    assert.equal(await refund.getByLabel(/Include shipping/).isChecked(), false);
    await refund.getByRole("button", { name: "Process Refund" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Confirm Refund" });
    await confirm.getByRole("button", { name: "Yes, Process Refund" }).click();
    await expectVisible(page.getByText("Refund Processed Successfully").first());
    await expectVisible(page.getByText(`Refunded ${amount} to customer`).first());
    await confirm.waitFor({ state: "detached" });
    await refund.waitFor({ state: "detached" });

    // The history in the still-open View dialog, dated "MMM dd, yyyy HH:mm".
    const history = detail.getByTestId("refund-history");
    await expectVisible(history.getByText(amount));
    await expectVisible(history.getByText("Arrived with a broken clasp"));
    assert.match(await history.innerText(), /[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2}/);
    await expectVisible(detail.getByText("Refunded", { exact: true }));
    await detail.getByRole("button", { name: "Close" }).last().click();
    await expectVisible(rowOf(page, orderNumber).getByText(`Refunded ${amount}`));

    // No second refund is offered (issue 28): the row says "Refunded" instead (the service still
    // refuses one in words: tests/integration/admin-orders-rest.test.ts).
    await expectVisible(rowOf(page, orderNumber).getByText("Refunded", { exact: true }));
    assert.equal(
      await rowOf(page, orderNumber)
        .getByRole("button", { name: `Process refund for order ${orderNumber}` })
        .count(),
      0,
    );
    assert.deepEqual(problems, []);
  });
});

describe("admin orders without JavaScript", () => {
  test("the orders list is rendered by the server, its controls waiting for JavaScript", async () => {
    // A paid and an unpaid order of the test's own, so both filters have something to show.
    const cap = await ownCap();
    const paidOrder = await placeOrder(cap.id, { buyer: newBuyer("Paula Paid") });
    const unpaidOrder = await placeOrder(cap.id, { buyer: newBuyer("Ulla Unpaid"), pay: false });

    const { page, problems } = await newPage({ javaScriptEnabled: false });
    await signIn(page, ADMIN);
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto("/admin/orders");
    await expectVisible(page.getByRole("heading", { name: "Order Management" }));
    const heading = page.getByRole("heading", { name: /^Orders \(\d+\)$/ });
    await expectVisible(heading);
    const count = countIn(await heading.innerText());
    const rows = page.getByTestId("order-row");
    assert.equal(await rows.count(), count);
    assert.ok(count >= 2, `the test's two orders are listed (${count})`);
    await expectVisible(rowOf(page, paidOrder.orderNumber));
    await expectVisible(rowOf(page, unpaidOrder.orderNumber));
    // A dropdown that cannot save without JavaScript is shown but disabled, never silently inert.
    assert.equal(await rows.first().getByRole("combobox").isDisabled(), true);
    assert.match(await rows.first().innerText(), /\$\d+\.\d{2}/);
    // The filters are links: paid and unpaid orders split the list between them.
    const filters = page.getByRole("navigation", { name: "Show orders" });
    await filters.getByRole("link", { name: /^Paid/ }).click();
    await page.waitForURL(/show=paid/);
    const paid = countIn(await heading.innerText());
    assert.equal(await rows.count(), paid);
    for (const row of await rows.all()) assert.doesNotMatch(await row.innerText(), /Unpaid/);
    await expectVisible(rowOf(page, paidOrder.orderNumber));
    assert.equal(await rowOf(page, unpaidOrder.orderNumber).count(), 0);
    await filters.getByRole("link", { name: /^Unpaid/ }).click();
    await page.waitForURL(/show=unpaid/);
    const unpaid = countIn(await heading.innerText());
    assert.equal(paid + unpaid, count);
    assert.equal(await rows.count(), unpaid);
    for (const row of await rows.all()) assert.match(await row.innerText(), /Unpaid/);
    await expectVisible(rowOf(page, unpaidOrder.orderNumber));
    assert.equal(await rowOf(page, paidOrder.orderNumber).count(), 0);
    assert.deepEqual(problems, []);
  });

  test("a store without any order says so", async () => {
    // Every other test leaves orders behind on the shared store: this one gets a store of its own.
    const admin = { username: "e2e-empty-admin", password: `empty-${uniqueToken()}` };
    const store = await startStore({
      name: "e2e-no-orders",
      env: { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password, ADMIN_EMAIL: "e2e-empty-admin@example.com" },
    });
    onCleanup(() => store.stop());
    const { page, problems } = await newPage({ javaScriptEnabled: false, baseURL: store.baseUrl });
    await signIn(page, admin);
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto("/admin/orders");
    await expectVisible(page.getByRole("heading", { name: "Order Management" }));
    await expectVisible(page.getByRole("heading", { name: "Orders (0)" }));
    assert.equal(await page.getByTestId("order-row").count(), 0);
    await expectVisible(page.getByText("No orders yet"));
    await expectVisible(page.getByText("Orders will appear here once customers start making purchases."));
    assert.deepEqual(problems, []);
  });
});
