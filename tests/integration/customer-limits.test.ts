import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { productFormSchema } from "#server/contracts/admin-products";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { addressKeyOf, customerKeyOf } from "#server/services/drop/customer-limits";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
let n = 0;
const customer = (overrides: Record<string, string> = {}) => ({
  email: `buyer${++n}@example.com`,
  name: "Lim Ited",
  phone: "",
  street: `${n} Main Street`,
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
  ...overrides,
});

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});

async function limited(max: number, name = "Drop Jacket") {
  return addProduct(ctx, { name, inventory: 50, maxPerCustomer: max });
}

/** A fresh browser with `quantity` of the product in its bag. */
async function bagWith(productId: number, quantity = 1) {
  const jar = new CookieJar();
  const added = await api("POST", "/api/cart", { body: { productId, quantity }, jar });
  expect(added.status).toBe(201);
  return jar;
}

const order = (jar: CookieJar, customerInfo: ReturnType<typeof customer>) =>
  api("POST", "/api/process-order", { jar, body: { customerInfo, shippingMethod: "usps-ground_saver", shippingCost: 5.95 } });

describe("the admin sets a limit per customer", () => {
  it("REST create and update take maxPerCustomer; empty means no limit; 0 is refused and changes nothing", async () => {
    const created = await api("POST", "/api/admin/products", {
      jar: admin,
      body: { name: "Limited Tee", description: "One per customer, really.", price: 40, inventory: 5, maxPerCustomer: 1 },
    });
    expect(created.status).toBe(201);
    const product = await created.json();
    expect(product.maxPerCustomer).toBe(1);

    const refused = await api("PATCH", `/api/admin/products/${product.id}`, { jar: admin, body: { maxPerCustomer: 0 } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors.maxPerCustomer).toEqual([
      "Limit per customer must be a whole number of at least 1, or empty for no limit",
    ]);
    const row = await ctx.db.selectFrom("products").select("maxPerCustomer").where("id", "=", product.id).executeTakeFirstOrThrow();
    expect(row.maxPerCustomer).toBe(1);

    const cleared = await api("PATCH", `/api/admin/products/${product.id}`, { jar: admin, body: { maxPerCustomer: "" } });
    expect((await cleared.json()).maxPerCustomer).toBeNull();
    const set = await api("PATCH", `/api/admin/products/${product.id}`, { jar: admin, body: { maxPerCustomer: "3" } });
    expect((await set.json()).maxPerCustomer).toBe(3);
  });

  it("the admin form reads an empty field as no limit and refuses 0 with the same words", () => {
    const form = { name: "Form Tee", description: "Made in the admin form.", price: "40", inventory: "3", discountPercent: "0" };
    const dims = { weight: "1", length: "12", width: "9", height: "6" };
    expect(productFormSchema.parse({ ...form, ...dims, maxPerCustomer: "" }).maxPerCustomer).toBeNull();
    expect(productFormSchema.parse({ ...form, ...dims, maxPerCustomer: "2" }).maxPerCustomer).toBe(2);
    const refused = productFormSchema.safeParse({ ...form, ...dims, maxPerCustomer: "0" });
    expect(refused.success ? [] : refused.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["maxPerCustomer", "Limit per customer must be a whole number of at least 1, or empty for no limit"],
    ]);
  });

  it("the shopper sees the limit on the product and its bag line", async () => {
    const id = await limited(2, "Limit Shown");
    expect((await (await api("GET", "/api/products")).json()).find((p: { id: number }) => p.id === id).maxPerCustomer).toBe(2);
    const jar = await bagWith(id);
    const cart = await (await api("GET", "/api/cart", { jar })).json();
    expect(cart.cartItems[0].product.maxPerCustomer).toBe(2);
  });
});

describe("the bag stops at the limit", () => {
  it("adds up to the limit, then answers 409 with the exact message and leaves the bag as it was", async () => {
    const id = await limited(2, "Bag Capped Hoodie");
    const jar = await bagWith(id, 2);
    const third = await api("POST", "/api/cart", { jar, body: { productId: id, quantity: 1 } });
    expect(third.status).toBe(409);
    expect((await third.json()).message).toBe("Limit 2 per customer for Bag Capped Hoodie.");
    const patched = await api("PATCH", `/api/cart/${id}`, { jar, body: { quantity: 3 } });
    expect(patched.status).toBe(409);
    const cart = await (await api("GET", "/api/cart", { jar })).json();
    expect(cart.cartItems[0].quantity).toBe(2);
  });
});

describe("Process Order counts every order of one customer", () => {
  it("refuses a second order by the same e-mail in another case, from another browser: 409 and no new order", async () => {
    const id = await limited(1);
    const first = customer();
    expect((await order(await bagWith(id), first)).status).toBe(201);
    const ordersBefore = await ctx.db.selectFrom("orders").select("id").execute();
    const second = await order(await bagWith(id), customer({ email: first.email.toUpperCase(), street: "999 Elsewhere Ave" }));
    expect(second.status).toBe(409);
    expect((await second.json()).message).toBe("Limit 1 per customer for Drop Jacket.");
    expect(await ctx.db.selectFrom("orders").select("id").execute()).toHaveLength(ordersBefore.length);
    const stock = await ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirstOrThrow();
    expect(stock.inventory).toBe(49);
  });

  it("refuses the same address spelt differently under another e-mail", async () => {
    const id = await limited(1);
    expect((await order(await bagWith(id), customer({ street: "12 North Main Street, Apt 4" }))).status).toBe(201);
    const again = await order(await bagWith(id), customer({ street: "12 n. main st #4", zipCode: "12207-1234" }));
    expect(again.status).toBe(409);
  });

  it("allows up to the limit over several orders", async () => {
    const id = await limited(3, "Three Max Cap");
    const who = customer();
    expect((await order(await bagWith(id, 2), who)).status).toBe(201);
    expect((await order(await bagWith(id, 1), who)).status).toBe(201);
    const over = await order(await bagWith(id, 1), who);
    expect(over.status).toBe(409);
    expect((await over.json()).message).toBe("Limit 3 per customer for Three Max Cap.");
  });

  it("counts a paid order; no longer counts it once refunded or cancelled", async () => {
    const id = await limited(1);
    const who = customer();
    await ctx.db.insertInto("cartItems").values({ sessionId: "limit-paid", productId: id, quantity: 1 }).execute();
    const placed = await processOrder(ctx, { sessionId: "limit-paid", customer: who, shippingMethod: "usps-ground_saver" });
    await payLocalIntent(ctx, { clientSecret: placed.clientSecret, cardNumber: "4242 4242 4242 4242" });
    expect((await confirmPayment(ctx, placed.paymentIntentId)).status).toBe("paid");
    expect((await order(await bagWith(id), who)).status).toBe(409);

    await ctx.db.updateTable("orders").set({ refundStatus: "completed" }).where("id", "=", placed.orderSummary.orderId).execute();
    const afterRefund = await order(await bagWith(id), who);
    expect(afterRefund.status).toBe(201);
    // That new order holds the one unit; cancelling it frees the customer again.
    const { orderSummary } = await afterRefund.json();
    await ctx.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", orderSummary.orderId).execute();
    expect((await order(await bagWith(id), who)).status).toBe(201);
  });

  it("no longer counts a hold that ran out", async () => {
    const id = await limited(1);
    const who = customer();
    expect((await order(await bagWith(id), who)).status).toBe(201);
    ctx.clock.advance((ctx.config.holdMinutes + 1) * 60_000);
    // Even before the sweeper released it, an expired hold is not the customer's any more.
    expect((await order(await bagWith(id), who)).status).toBe(201);
    await releaseExpiredHolds(ctx);
  });
});

describe("a payment that arrives after its hold ran out", () => {
  // The hold was released and the intent cancelled, but the money went through anyway (it was
  // being taken while the hold ran out): the provider reports the payment as succeeded.
  async function placedAndExpired(productId: number, who: ReturnType<typeof customer>, sessionId: string) {
    await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
    const placed = await processOrder(ctx, { sessionId, customer: who, shippingMethod: "usps-ground_saver" });
    ctx.clock.advance((ctx.config.holdMinutes + 1) * 60_000);
    await releaseExpiredHolds(ctx);
    await ctx.db.updateTable("localPaymentIntents").set({ status: "succeeded" }).where("id", "=", placed.paymentIntentId).execute();
    return placed;
  }
  const inventoryOf = async (id: number) =>
    (await ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirstOrThrow()).inventory;

  it("is refunded when the customer has bought the limit since, and the units stay on the shelf", async () => {
    const id = await limited(1, "Late Jacket");
    const who = customer();
    const late = await placedAndExpired(id, who, "limit-late-1");
    const again = await order(await bagWith(id), customer({ email: who.email.toUpperCase(), street: "999 Other Road" }));
    expect(again.status).toBe(201);
    const { clientSecret, paymentIntentId } = await again.json();
    await payLocalIntent(ctx, { clientSecret, cardNumber: "4242 4242 4242 4242" });
    expect((await confirmPayment(ctx, paymentIntentId)).status).toBe("paid");
    expect(await inventoryOf(id)).toBe(49);

    const outcome = await confirmPayment(ctx, late.paymentIntentId);
    expect(outcome).toMatchObject({
      status: "cancelled",
      message:
        "Your reservation ran out and you have ordered this item again since. Limit 1 per customer for Late Jacket. Your payment has been refunded in full.",
    });
    expect(await inventoryOf(id)).toBe(49);
    const row = await ctx.db
      .selectFrom("orders")
      .select(["status", "refundStatus", "refundAmountCents", "totalCents"])
      .where("id", "=", late.orderSummary.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "cancelled", refundStatus: "completed", refundAmountCents: row.totalCents });
    const refund = await ctx.db
      .selectFrom("refunds")
      .select(["reason", "amountCents"])
      .where("orderId", "=", late.orderSummary.orderId)
      .executeTakeFirstOrThrow();
    expect(refund).toEqual({ reason: "Over the limit per customer after the reservation expired", amountCents: row.totalCents });
    const intent = await ctx.db
      .selectFrom("localPaymentIntents")
      .select("refundedCents")
      .where("id", "=", late.paymentIntentId)
      .executeTakeFirstOrThrow();
    expect(intent.refundedCents).toBe(row.totalCents);
    // Asked again (the webhook after the buyer's own call, or the success page reloaded): the same
    // answer, and nothing more happens.
    expect(await confirmPayment(ctx, late.paymentIntentId)).toMatchObject({
      status: "cancelled",
      message: "This order was cancelled and your payment has been refunded in full.",
    });
    expect(await ctx.db.selectFrom("refunds").select("id").where("orderId", "=", late.orderSummary.orderId).execute()).toHaveLength(1);
  });

  it("still counts when the customer has not ordered again: the units are taken again and the order is paid", async () => {
    const id = await limited(1, "Late Cap");
    const late = await placedAndExpired(id, customer(), "limit-late-2");
    expect(await inventoryOf(id)).toBe(50);
    expect((await confirmPayment(ctx, late.paymentIntentId)).status).toBe("paid");
    expect(await inventoryOf(id)).toBe(49);
    expect(await ctx.db.selectFrom("refunds").select("id").where("orderId", "=", late.orderSummary.orderId).execute()).toHaveLength(0);
  });

  it("is refunded when the last unit sold to someone else meanwhile", async () => {
    const id = await addProduct(ctx, { name: "Late Last Tee", inventory: 1 });
    const late = await placedAndExpired(id, customer(), "limit-late-3");
    const other = await order(await bagWith(id), customer());
    expect(other.status).toBe(201);
    expect(await inventoryOf(id)).toBe(0);
    expect(await confirmPayment(ctx, late.paymentIntentId)).toMatchObject({
      status: "cancelled",
      message: "Your reservation ran out and the items sold out meanwhile. Your payment has been refunded in full.",
    });
    expect(await inventoryOf(id)).toBe(0);
    const refund = await ctx.db
      .selectFrom("refunds")
      .select("reason")
      .where("orderId", "=", late.orderSummary.orderId)
      .executeTakeFirstOrThrow();
    expect(refund.reason).toBe("Sold out after the reservation expired");
  });
});

describe("the customer key", () => {
  it("folds a +tag at any provider, Gmail's dots and googlemail.com, and case in every script", () => {
    const same: [string, string][] = [
      ["Jane.Doe+drop1@GMail.com", "janedoe@gmail.com"],
      ["j.a.n.e.d.o.e@googlemail.com", "janedoe@gmail.com"],
      ["JaneDoe+a+b@gmail.com.", "janedoe@gmail.com"],
      ["jane.doe+drop@example.com", "jane.doe@example.com"],
      ["Jane.Doe@Example.COM", "jane.doe@example.com"],
      ["STRASSE@beispiel.de", "strasse@beispiel.de"],
      ["straße@beispiel.de", "strasse@beispiel.de"],
      ["ΣΊΣΥΦΟΣ@example.gr", "σίσυφος@example.gr"],
      ["ｊａｎｅ@example.com", "jane@example.com"],
      ["用户+抢购@例子.广告", "用户@xn--fsqu00a.xn--4rr70v"],
      ["用户@xn--fsqu00a.xn--4rr70v", "用户@xn--fsqu00a.xn--4rr70v"],
      ["ИВАН+1@пример.рф", "иван@xn--e1afmkfd.xn--p1ai"],
    ];
    for (const [email, key] of same) expect(customerKeyOf(email), email).toBe(key);
  });

  it("keeps apart what is another mailbox", () => {
    // Dots count outside Gmail; a leading + is the whole local part, not a tag.
    expect(customerKeyOf("jane.doe@example.com")).not.toBe(customerKeyOf("janedoe@example.com"));
    expect(customerKeyOf("+tag@example.com")).toBe("+tag@example.com");
    expect(customerKeyOf("иван@пример.рф")).not.toBe(customerKeyOf("иона@пример.рф"));
    expect(customerKeyOf("用户@example.com")).not.toBe(customerKeyOf("客户@example.com"));
  });

  it("makes Process Order refuse a second order under a +tag or Gmail's dots", async () => {
    const id = await limited(1, "Tagged Tee");
    expect((await order(await bagWith(id), customer({ email: "drop.fan@gmail.com" }))).status).toBe(201);
    for (const email of ["drop.fan+2@gmail.com", "DropFan@googlemail.com", "d.r.o.p.f.a.n+bot7@gmail.com"]) {
      const again = await order(await bagWith(id), customer({ email }));
      expect(again.status, email).toBe(409);
      expect((await again.json()).message).toBe("Limit 1 per customer for Tagged Tee.");
    }
  });
});

describe("the address key", () => {
  it("keeps letters of every script: two streets that differ only in them are two addresses", () => {
    const tokyo = { street: "中央通り1-2", city: "千代田区", state: "東京都", zipCode: "100-0001", country: "JP" };
    expect(addressKeyOf(tokyo)).toBe("中央通り1 2|千代田区|東京都|100-0001|JP");
    expect(addressKeyOf(tokyo)).not.toBe(addressKeyOf({ ...tokyo, street: "本町通り1-2" }));
    expect(addressKeyOf({ ...tokyo, street: "中央通り１－２" })).toBe(addressKeyOf(tokyo));
    const kyiv = { street: "вул. Хрещатик 22", city: "Київ", state: "", zipCode: "01001", country: "UA" };
    expect(addressKeyOf(kyiv)).toBe(addressKeyOf({ ...kyiv, street: "ВУЛ. ХРЕЩАТИК 22", city: "КИЇВ" }));
    expect(addressKeyOf(kyiv)).not.toBe(addressKeyOf({ ...kyiv, street: "вул. Саксаганського 22" }));
    expect(addressKeyOf({ ...kyiv, city: "Київ" })).not.toBe(addressKeyOf({ ...kyiv, city: "Кіів" }));
    expect(addressKeyOf({ street: "12 Straße", city: "Köln", state: "", zipCode: "50667", country: "DE" })).toBe(
      addressKeyOf({ street: "12 STRASSE", city: "Koln", state: "", zipCode: "50667", country: "de" }),
    );
  });

  it("is the same for spellings of one address and differs for another flat", () => {
    const a = { street: "12 North Main Street, Apt 4", city: "Albany ", state: "ny", zipCode: "12207", country: "US" };
    expect(addressKeyOf(a)).toBe(addressKeyOf({ ...a, street: "12 n. MAIN st #4", zipCode: "12207-1234", city: "albany" }));
    expect(addressKeyOf(a)).not.toBe(addressKeyOf({ ...a, street: "12 North Main Street, Apt 5" }));
  });
});

function buyer(sessionId: string, email: string, startAt: number): Promise<{ ok: boolean; message?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/fixtures/limit-buyer.ts", ctx.config.dataDir, sessionId, email, String(startAt)],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, STORE_TEST_DATABASE: JSON.stringify(ctx.config.database) } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    // A test that ends first (a timeout) takes its buyers with it: none outlives the file's database.
    onTestFinished(() => void child.kill("SIGKILL"));
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`buyer exited with ${code}:\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").pop()!) as { ok: boolean; message?: string });
    });
  });
}

describe("two workers racing for a limit of one", () => {
  it("two processes on one SQLite file press Process Order at once for one customer: exactly one wins", async () => {
    const id = await limited(1, "Race Limit Tee");
    for (const sessionId of ["race-a", "race-b"])
      await ctx.db.insertInto("cartItems").values({ sessionId, productId: id, quantity: 1 }).execute();
    const startAt = Date.now() + 2_500;
    const results = await Promise.all([buyer("race-a", "racer@example.com", startAt), buyer("race-b", "RACER@example.com", startAt)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)?.message).toBe("Limit 1 per customer for Race Limit Tee.");
    const held = await ctx.db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select("orders.id")
      .where("orderItems.productId", "=", id)
      .where("orders.status", "=", "pending")
      .execute();
    expect(held).toHaveLength(1);
  }, 60_000);
});
