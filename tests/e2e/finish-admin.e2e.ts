// Issue 28, the admin's half: focus that comes back, order states the admin can trust, the drop
// page speaking like every other form, and the product screens' rough edges.
import assert from "node:assert/strict";
import type { APIRequestContext, Locator, Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, describe, expectSettled, expectVisible, newPage, signIn, test } from "./browser";
import { addImages, adminApi, createProduct, newBuyer, placeOrder, uniqueName } from "./support/data";

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [
  { name: "desktop", viewport: DESKTOP },
  { name: "phone", viewport: PHONE },
] as const;

async function ownCap(api: APIRequestContext): Promise<AdminProduct> {
  return createProduct(api, { name: uniqueName("E2E Finish Cap"), price: 28, inventory: 10, weight: 0.3 });
}

/** The admin's id of an order, found by its number. */
async function orderIdOf(api: APIRequestContext, orderNumber: string): Promise<number> {
  const { orders } = (await (await api.get("/api/admin/orders")).json()) as { orders: { id: number; orderNumber: string }[] };
  const order = orders.find((o) => o.orderNumber === orderNumber);
  assert.ok(order, `order ${orderNumber} is listed`);
  return order.id;
}

async function signedIn(path: string, viewport = DESKTOP, javaScriptEnabled = true) {
  const opened = await newPage({ viewport, javaScriptEnabled });
  await signIn(opened.page, ADMIN);
  await opened.page.waitForURL((url) => url.pathname === "/admin");
  opened.problems.length = 0;
  await opened.page.goto(path);
  return opened;
}

/** The accessible name (aria-label, else text) of the element that has the keyboard focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "(body)";
    return el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName;
  });

/**
 * Waits (up to 3 s) for the keyboard focus to be on the control of that name, then checks it: Radix
 * hands the focus back a tick after the dialog has gone.
 */
async function expectFocusOn(page: Page, name: string): Promise<void> {
  await page
    .waitForFunction(
      (wanted) => {
        const el = document.activeElement;
        return el !== null && el !== document.body && (el.getAttribute("aria-label") ?? el.textContent?.trim()) === wanted;
      },
      name,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
  assert.equal(await focused(page), name);
}

/**
 * Waits for the dialog's focus trap to take the focus, as it does before a person could press a key:
 * until then the dialog's Escape handler is not yet listening, and Escape reaches the one beneath.
 */
async function focusMovedInto(dialog: Locator): Promise<void> {
  const handle = await dialog.elementHandle();
  await dialog.page().waitForFunction((element) => element?.contains(document.activeElement) === true, handle);
}

const rowOf = (page: Page, orderNumber: string) => page.getByTestId("order-row").filter({ hasText: orderNumber });

describe("admin focus comes back", () => {
  test("Esc on an order's View, Refund and refund-from-View dialogs returns the focus to what opened them", async () => {
    const api = await adminApi();
    const cap = await ownCap(api);
    const { orderNumber } = await placeOrder(cap.id, { buyer: newBuyer("Fiona Focus") });
    const { page, problems } = await signedIn("/admin/orders?show=paid");
    const row = rowOf(page, orderNumber);
    const view = row.getByRole("button", { name: `View order ${orderNumber}` });
    await view.locator(":scope:not([disabled])").waitFor();

    await view.click();
    const detail = page.getByRole("dialog", { name: `Order ${orderNumber}` });
    await expectSettled(detail);
    await page.keyboard.press("Escape");
    await detail.waitFor({ state: "detached" });
    await expectFocusOn(page, `View order ${orderNumber}`);

    await row.getByRole("button", { name: `Process refund for order ${orderNumber}` }).click();
    const refund = page.getByRole("dialog", { name: "Process Refund" });
    await expectVisible(refund.getByText("This order can be refunded."));
    await focusMovedInto(refund);
    await page.keyboard.press("Escape");
    await refund.waitFor({ state: "detached" });
    await expectFocusOn(page, `Process refund for order ${orderNumber}`);

    // Stacked: the refund dialog over the View dialog gives the focus back inside the View dialog.
    await view.click();
    await expectVisible(detail.getByRole("button", { name: "Process Refund" }));
    await detail.getByRole("button", { name: "Process Refund" }).click();
    await expectVisible(refund.getByText("This order can be refunded."));
    await focusMovedInto(refund);
    await page.keyboard.press("Escape");
    await refund.waitFor({ state: "detached" });
    await expectFocusOn(page, "Process Refund");
    await page.keyboard.press("Escape");
    await detail.waitFor({ state: "detached" });
    await expectFocusOn(page, `View order ${orderNumber}`);
    assert.deepEqual(problems, []);
  });

  test("Esc on a product's Delete dialog returns the focus to its Delete button", async () => {
    const api = await adminApi();
    const cap = await ownCap(api);
    const { page, problems } = await signedIn("/admin/products");
    const row = page.getByTestId("product-row").filter({ hasText: cap.name });
    const remove = row.getByRole("button", { name: `Delete ${cap.name}` });
    await remove.locator(":scope:not([disabled])").waitFor();
    await remove.click();
    const dialog = page.getByRole("dialog", { name: "Delete this product?" });
    await expectSettled(dialog);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expectFocusOn(page, `Delete ${cap.name}`);
    assert.deepEqual(problems, []);
  });

  test("Hide and Show on the product list keep the focus on the button pressed", async () => {
    const api = await adminApi();
    const cap = await ownCap(api);
    const { page, problems } = await signedIn("/admin/products");
    const row = page.getByTestId("product-row").filter({ hasText: cap.name });
    const hide = row.getByRole("button", { name: `Hide ${cap.name}` });
    await hide.locator(":scope:not([disabled])").waitFor();
    await hide.focus();
    await page.keyboard.press("Enter");
    await expectVisible(row.getByRole("button", { name: `Show ${cap.name}` }));
    await expectFocusOn(page, `Show ${cap.name}`);
    await page.keyboard.press("Enter");
    await expectVisible(row.getByRole("button", { name: `Hide ${cap.name}` }));
    await expectFocusOn(page, `Hide ${cap.name}`);
    const stored = (await (await api.get("/api/admin/products")).json()) as AdminProduct[];
    assert.equal(stored.find((p) => p.id === cap.id)?.isVisible, true);
    assert.deepEqual(problems, []);
  });
});

describe("order states the admin can trust", () => {
  for (const { name, viewport } of VIEWPORTS) {
    test(`a refunded order shows "Refunded" and offers no refund (${name})`, async () => {
      const api = await adminApi();
      const cap = await ownCap(api);
      const { orderNumber } = await placeOrder(cap.id, { buyer: newBuyer("Rita Refunded") });
      const id = await orderIdOf(api, orderNumber);
      const refunded = await api.post(`/api/admin/orders/${id}/refund`, { data: { reason: "Test refund", refundShipping: true } });
      assert.equal(refunded.status(), 201, await refunded.text());

      const { page, problems } = await signedIn("/admin/orders?show=paid", viewport);
      const row = rowOf(page, orderNumber);
      await expectVisible(row.getByText("Refunded", { exact: true }));
      await row
        .getByRole("button", { name: `View order ${orderNumber}` })
        .locator(":scope:not([disabled])")
        .waitFor();
      assert.equal(await row.getByRole("button", { name: /Process refund/ }).count(), 0);
      await row.getByRole("button", { name: `View order ${orderNumber}` }).click();
      const detail = page.getByRole("dialog", { name: `Order ${orderNumber}` });
      await expectVisible(detail.getByTestId("refund-history"));
      assert.equal(await detail.getByRole("button", { name: "Process Refund" }).count(), 0);
      assert.deepEqual(problems, []);
    });

    test(`an unpaid order offers no refund and asks before it is shipped or delivered (${name})`, async () => {
      const api = await adminApi();
      const cap = await ownCap(api);
      const { orderNumber } = await placeOrder(cap.id, { buyer: newBuyer("Ulrich Unpaid"), pay: false });
      const id = await orderIdOf(api, orderNumber);
      const statusOf = async () => {
        const { orders } = (await (await api.get("/api/admin/orders")).json()) as { orders: { id: number; status: string }[] };
        return orders.find((o) => o.id === id)?.status;
      };

      const { page, problems } = await signedIn("/admin/orders?show=unpaid", viewport);
      const row = rowOf(page, orderNumber);
      const select = row.getByRole("combobox", { name: `Status of order ${orderNumber}` });
      await select.locator(":scope:not([disabled])").waitFor();
      assert.equal(await row.getByRole("button", { name: /Process refund/ }).count(), 0);

      // Shipped: a confirmation naming the risk; Esc keeps the status and the focus on the dropdown.
      await select.selectOption("shipped");
      const confirm = page.getByRole("alertdialog", { name: "Mark as shipped?" });
      await expectVisible(confirm.getByText(/^This order is not paid\./));
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
      assert.equal(await select.inputValue(), "pending");
      await expectFocusOn(page, `Status of order ${orderNumber}`);
      assert.equal(await statusOf(), "pending");

      // Delivered, confirmed: saved.
      await select.selectOption("delivered");
      const delivered = page.getByRole("alertdialog", { name: "Mark as delivered?" });
      await expectVisible(delivered.getByText(/^This order is not paid\./));
      await delivered.getByRole("button", { name: "Mark as Delivered" }).click();
      await expectVisible(page.getByText("Status updated").first());
      assert.equal(await statusOf(), "delivered");
      // Saving does not take the focus away from the dropdown.
      await expectFocusOn(page, `Status of order ${orderNumber}`);

      // Cancelled needs no confirmation: nothing leaves the door.
      await select.locator(":scope:not([aria-disabled])").waitFor();
      await select.selectOption("cancelled");
      await expectVisible(page.getByText(`Order ${orderNumber} is now cancelled.`).first());
      assert.equal(await page.getByRole("alertdialog").count(), 0);

      await row.getByRole("button", { name: `View order ${orderNumber}` }).click();
      const detail = page.getByRole("dialog", { name: `Order ${orderNumber}` });
      await expectVisible(detail.getByText("Not paid").first());
      assert.equal(await detail.getByRole("button", { name: "Process Refund" }).count(), 0);
      assert.deepEqual(problems, []);
    });
  }

  test("the REST call still sets any status on an unpaid order, without asking", async () => {
    const api = await adminApi();
    const cap = await ownCap(api);
    const { orderNumber } = await placeOrder(cap.id, { pay: false });
    const id = await orderIdOf(api, orderNumber);
    const response = await api.patch(`/api/admin/orders/${id}/status`, { data: { status: "shipped" } });
    assert.equal(response.status(), 200);
    assert.equal(((await response.json()) as { status: string }).status, "shipped");
  });

  test("order detail names the shipping method as the checkout did", async () => {
    const api = await adminApi();
    const cap = await ownCap(api);
    const { orderNumber } = await placeOrder(cap.id);
    const { page, problems } = await signedIn("/admin/orders?show=paid");
    const row = rowOf(page, orderNumber);
    await row
      .getByRole("button", { name: `View order ${orderNumber}` })
      .locator(":scope:not([disabled])")
      .waitFor();
    await row.getByRole("button", { name: `View order ${orderNumber}` }).click();
    const detail = page.getByRole("dialog", { name: `Order ${orderNumber}` });
    await expectVisible(detail.getByText("USPS Ground Advantage", { exact: true }));
    assert.doesNotMatch(await detail.innerText(), /usps-ground_saver/);
    assert.deepEqual(problems, []);
  });
});

describe("the drop page speaks like every other form", () => {
  test("the switch says what its position does, and bad numbers get inline errors, not browser bubbles", async () => {
    const api = await adminApi();
    const before = (await (await api.get("/api/admin/waiting-room")).json()) as Record<string, unknown>;
    const { page, problems } = await signedIn("/admin/drop", PHONE);
    const form = page.getByRole("form", { name: "Settings" });
    const toggle = form.getByRole("switch", { name: /Waiting room on/ });
    await form.waitFor();
    const on = "On: in its window, shoppers wait in line and are let in at the set rate.";
    const off = "Off: the store lets everyone in at T-0, fastest first.";
    const describedAs = async () => ((await toggle.isChecked()) ? on : off);
    await expectVisible(form.getByText(await describedAs()));
    assert.equal(await form.getByText((await toggle.isChecked()) ? off : on).count(), 0);
    await toggle.click({ force: true });
    await expectVisible(form.getByText(await describedAs()));
    assert.equal(await form.getByText((await toggle.isChecked()) ? off : on).count(), 0);

    const rate = page.getByLabel("Shoppers let in per minute");
    await rate.fill("0");
    await page.getByRole("button", { name: "Set rate" }).click();
    await expectVisible(page.getByText("Enter a whole number from 1 to 1,000,000."));
    assert.equal(await rate.getAttribute("aria-invalid"), "true");
    assert.equal(await rate.evaluate((el) => el === document.activeElement), true);

    const places = form.getByLabel("Places per address");
    await places.fill("");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expectVisible(form.getByText("Enter a number."));
    assert.equal(await places.getAttribute("aria-invalid"), "true");
    assert.equal(await places.evaluate((el) => el === document.activeElement), true);
    // Nothing was sent: the stored settings are as they were.
    const after = (await (await api.get("/api/admin/waiting-room")).json()) as Record<string, unknown>;
    for (const key of ["enabled", "admitPerMinute", "perAddress"]) assert.equal(after[key], before[key], key);
    // Typing again clears the message.
    await places.fill("5");
    assert.equal(await form.getByText("Enter a number.").count(), 0);
    assert.deepEqual(problems, []);
  });
});

describe("admin product screens", () => {
  test("the product table fits 1366 px: the Actions header is not clipped", async () => {
    const api = await adminApi();
    await ownCap(api);
    const { page, problems } = await signedIn("/admin/products", DESKTOP);
    const table = page.getByRole("table", { name: "Products" });
    await table.waitFor();
    const { scroll, client, header, box } = await table.evaluate((el) => {
      const scroller = el.parentElement!;
      const actions = [...el.querySelectorAll("th")].find((th) => th.textContent?.trim() === "Actions")!;
      return {
        scroll: scroller.scrollWidth,
        client: scroller.clientWidth,
        header: actions.getBoundingClientRect().right,
        box: scroller.getBoundingClientRect().right,
      };
    });
    assert.ok(scroll <= client, `the table scrolls sideways by ${scroll - client} px`);
    assert.ok(header <= box, `the Actions header ends ${header - box} px past its box`);
    assert.deepEqual(problems, []);
  });

  test("without JavaScript the product list's Hide and Delete are shown disabled, as on the orders page", async () => {
    const api = await adminApi();
    const cap = await ownCap(api);
    const { page, problems } = await signedIn("/admin/products", DESKTOP, false);
    const row = page.getByTestId("product-row").filter({ hasText: cap.name });
    await expectVisible(row);
    assert.equal(await row.getByRole("button", { name: `Hide ${cap.name}` }).isDisabled(), true);
    assert.equal(await row.getByRole("button", { name: `Delete ${cap.name}` }).isDisabled(), true);
    assert.deepEqual(problems, []);
  });

  test("the product form says plainly which picture the store shows", async () => {
    const api = await adminApi();
    const bare = await ownCap(api);
    const pictured = await ownCap(api);
    await addImages(api, pictured.id, ["#224466"]);
    const { page, problems } = await signedIn(`/admin/products?tab=form&id=${bare.id}`, PHONE);
    const note = page.getByTestId("store-image-note");
    await expectVisible(note);
    assert.match(await note.innerText(), /The store shows this picture while the product has no gallery images\./);
    await page.goto(`/admin/products?tab=form&id=${pictured.id}`);
    await expectVisible(note.getByText(/primary image of the gallery/));
    assert.match(await note.innerText(), /The store shows the primary image of the gallery \(Images, below\), not a picture set here\./);
    assert.deepEqual(problems, []);
  });
});
