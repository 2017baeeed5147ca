import { http, HttpResponse } from "msw";
import { useAppContextForTests } from "#server/boot";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { orderNumberOf } from "#server/contracts/checkout";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { fulfilBackoffMs, fulfilDueOrders, MAX_FULFIL_ATTEMPTS } from "#server/services/fulfilment/fulfilment";
import { startFulfilmentJob } from "#server/services/fulfilment/fulfilment-job";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { ensureAdmin } from "#server/services/accounts/users";
import { createCallerFactory } from "#server/trpc/init";
import { appRouter } from "#server/trpc/router";
import { POSTMARK_API } from "../mocks/postmark";
import { mockServer } from "../mocks/server";
import { SHIPPO_LABEL_ERROR_MESSAGE, SHIPPO_TEST_ADDRESSES, shippoState } from "../mocks/shippo";
import { createTestContext, twoWorkers, type TestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { runFulfilmentJob } from "./store-helpers";
import { expectLoggedErrors, loggedAt } from "../setup/log-capture";

const vendors = {
  SHIPPO_API_KEY: "shippo_test_0123456789abcdef",
  POSTMARK_SERVER_TOKEN: "pm-token",
  POSTMARK_FROM: "store@legacy.test",
};
const ctx = createTestContext(vendors);

const customer = {
  email: "buyer@example.com",
  name: "Ada Buyer",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};
let productId: number;
let sessions = 0;

beforeAll(async () => {
  const row = await ctx.db
    .insertInto("products")
    .values({
      name: "Heavy Hoodie",
      description: "A hoodie for the fulfilment tests",
      priceCents: 9000,
      inventory: 100,
      weight: 2,
      length: 14,
      width: 11,
      height: 3,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  productId = row.id;
});
beforeEach(() => shippoState.reset());

/** Postmark answering 503 until `up()` is called: an outage on drop day. */
function postmarkDown() {
  let down = true;
  const accepted: string[] = [];
  mockServer.use(
    http.post(`${POSTMARK_API}/email`, async ({ request }) => {
      if (down) return HttpResponse.json({ ErrorCode: 100, Message: "Service unavailable" }, { status: 503 });
      const body = (await request.json()) as { To: string; Subject: string };
      accepted.push(body.Subject);
      return HttpResponse.json({
        To: body.To,
        SubmittedAt: new Date().toISOString(),
        MessageID: crypto.randomUUID(),
        ErrorCode: 0,
        Message: "OK",
      });
    }),
  );
  return { up: () => void (down = false), accepted };
}

async function checkout(address: Partial<typeof customer> = {}, on: TestContext = ctx, product = productId) {
  const sessionId = `fulfil-${++sessions}`;
  await on.db.insertInto("cartItems").values({ sessionId, productId: product, quantity: 1 }).execute();
  const order = await processOrder(on, { sessionId, customer: { ...customer, ...address }, shippingMethod: "usps-usps_ground_advantage" });
  await payLocalIntent(on, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
  return { paymentIntentId: order.paymentIntentId, orderId: order.orderSummary.orderId };
}

const orderRow = (id: number, on: TestContext = ctx) =>
  on.db
    .selectFrom("orders")
    .select(["status", "paidAt", "confirmationSentAt", "fulfilledAt", "fulfilAttempts", "fulfilNextAt"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const labelsOf = (id: number, on: TestContext = ctx) => on.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", id).execute();
async function mailsOf(id: number, on: TestContext = ctx) {
  const number = orderNumberOf(
    await on.db.selectFrom("orders").select(["id", "paymentIntentId"]).where("id", "=", id).executeTakeFirstOrThrow(),
  );
  return on.db
    .selectFrom("mailMessages")
    .select(["status", "subject"])
    .where("tag", "=", "order-confirmation")
    .where("subject", "like", `%#${number}%`)
    .orderBy("id")
    .execute();
}

describe("an order paid while Postmark is down", () => {
  it("stays paid, and the job sends its confirmation once Postmark is back, without buying a second label", async () => {
    const postmark = postmarkDown();
    const { paymentIntentId, orderId } = await checkout();
    const paidAt = ctx.clock.now().getTime();
    expect(await confirmPayment(ctx, paymentIntentId)).toMatchObject({ status: "paid", firstTime: true });
    expect(await runFulfilmentJob(ctx)).toBe(1);

    expect(await orderRow(orderId)).toMatchObject({ status: "processing", confirmationSentAt: null, fulfilledAt: null, fulfilAttempts: 1 });
    expect((await orderRow(orderId)).fulfilNextAt).toBe(new Date(paidAt + fulfilBackoffMs(1)).toISOString());
    expect(await mailsOf(orderId)).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "created" })]);

    // Not due yet: nothing happens, even with Postmark back.
    postmark.up();
    ctx.clock.advance(fulfilBackoffMs(1) - 1000);
    expect(await fulfilDueOrders(ctx)).toBe(0);
    expect(postmark.accepted).toEqual([]);

    ctx.clock.advance(1000);
    expect(await fulfilDueOrders(ctx)).toBe(1);
    expect(postmark.accepted).toHaveLength(1);
    expect(postmark.accepted[0]).toBe((await mailsOf(orderId))[1]!.subject);
    expect(await mailsOf(orderId)).toEqual([expect.objectContaining({ status: "failed" }), expect.objectContaining({ status: "sent" })]);
    const row = await orderRow(orderId);
    expect(row.confirmationSentAt).not.toBeNull();
    expect(row.fulfilledAt).not.toBeNull();
    expect(row.fulfilAttempts).toBe(2);
    expect(shippoState.transactionRequests()).toHaveLength(1);

    // Done is done: later sweeps and confirmations send nothing more.
    ctx.clock.advance(fulfilBackoffMs(5));
    expect(await fulfilDueOrders(ctx)).toBe(0);
    expect(await confirmPayment(ctx, paymentIntentId)).toMatchObject({ status: "paid", firstTime: false });
    expect(await fulfilDueOrders(ctx)).toBe(0);
    expect(postmark.accepted).toHaveLength(1);
  });
});

describe("a label Shippo could not buy", () => {
  it("is bought on a later pass of the job into the same label row; the e-mail is not sent again", async () => {
    shippoState.nextTransactionError = "Carrier timeout, please retry";
    const { paymentIntentId, orderId } = await checkout();
    await confirmPayment(ctx, paymentIntentId);
    await runFulfilmentJob(ctx);
    expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "failed", errorMessage: "Carrier timeout, please retry" })]);
    expect(await mailsOf(orderId)).toEqual([expect.objectContaining({ status: "sent" })]);

    ctx.clock.advance(fulfilBackoffMs(1));
    expect(await fulfilDueOrders(ctx)).toBe(1);
    const labels = await labelsOf(orderId);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ status: "created", errorMessage: null, carrier: "USPS" });
    expect(labels[0]!.trackingNumber).toMatch(/^9400\d{18}$/);
    expect(await mailsOf(orderId)).toHaveLength(1);
    expect((await orderRow(orderId)).fulfilledAt).not.toBeNull();
  });

  it("is given up after the last try, backing off between tries, and left for the admin with Shippo's reason", async () => {
    const { paymentIntentId, orderId } = await checkout({ street: SHIPPO_TEST_ADDRESSES.labelErrorStreet });
    await confirmPayment(ctx, paymentIntentId);
    expect(await runFulfilmentJob(ctx)).toBe(1);
    expectLoggedErrors();
    const gaps: number[] = [];
    for (let attempt = 1; attempt < MAX_FULFIL_ATTEMPTS; attempt++) {
      const { fulfilNextAt } = await orderRow(orderId);
      gaps.push(new Date(fulfilNextAt!).getTime() - ctx.clock.now().getTime());
      ctx.clock.set(fulfilNextAt!);
      expect(await fulfilDueOrders(ctx)).toBe(1);
    }
    expect(gaps).toEqual([2, 4, 8, 16, 32].map((minutes) => minutes * 60_000));
    expect(loggedAt("error")).toContain(`Order ${orderId}: gave up after ${MAX_FULFIL_ATTEMPTS} tries (e-mail sent, label not bought).`);

    expect(await orderRow(orderId)).toMatchObject({ fulfilAttempts: MAX_FULFIL_ATTEMPTS, fulfilNextAt: null });
    expect((await orderRow(orderId)).fulfilledAt).not.toBeNull();
    expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "failed", errorMessage: SHIPPO_LABEL_ERROR_MESSAGE })]);
    expect(shippoState.transactionRequests()).toHaveLength(MAX_FULFIL_ATTEMPTS);
    expect(await mailsOf(orderId)).toHaveLength(1);
    ctx.clock.advance(fulfilBackoffMs(10));
    expect(await fulfilDueOrders(ctx)).toBe(0);
  });
});

describe("a crash between the payment and its e-mail", () => {
  it("is finished by the job's next pass: no grace period, since no answer is fulfilling it", async () => {
    const { orderId } = await checkout();
    // What a process killed right after the payment's commit leaves behind.
    await ctx.db
      .updateTable("orders")
      .set({ status: "processing", paidAt: ctx.clock.now().toISOString() })
      .where("id", "=", orderId)
      .execute();

    expect(await mailsOf(orderId)).toEqual([]);
    expect(await fulfilDueOrders(ctx)).toBe(1);
    expect(await mailsOf(orderId)).toEqual([expect.objectContaining({ status: "sent" })]);
    expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "created" })]);
    expect(await orderRow(orderId)).toMatchObject({ fulfilAttempts: 1, fulfilNextAt: null });
  });

  it("leaves a cancelled order alone: no e-mail, no label", async () => {
    const { orderId } = await checkout();
    await ctx.db
      .updateTable("orders")
      .set({ status: "cancelled", paidAt: ctx.clock.now().toISOString() })
      .where("id", "=", orderId)
      .execute();
    expect(await fulfilDueOrders(ctx)).toBe(1);
    expect(await mailsOf(orderId)).toEqual([]);
    expect(await labelsOf(orderId)).toEqual([]);
    expect((await orderRow(orderId)).fulfilledAt).not.toBeNull();
    expect(await fulfilDueOrders(ctx)).toBe(0);
  });
});

describe("Buy Label Again (POST /api/admin/orders/{id}/label, tRPC admin.orders.buyLabel)", () => {
  const admin = new CookieJar();
  beforeAll(async () => {
    useAppContextForTests(ctx);
    await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
    await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  });
  const buy = (id: number | string) => api("POST", `/api/admin/orders/${id}/label`, { jar: admin });

  it("buys the label into the failed row, then refuses a second one", async () => {
    shippoState.nextTransactionError = "Carrier timeout, please retry";
    const { paymentIntentId, orderId } = await checkout();
    await confirmPayment(ctx, paymentIntentId);
    await runFulfilmentJob(ctx);

    const bought = await buy(orderId);
    expect(bought.status).toBe(201);
    expect(await bought.json()).toMatchObject({ orderId, status: "created", carrier: "USPS", errorMessage: null });
    expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "created" })]);

    const again = await buy(orderId);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("This order already has a shipping label.");
    expect(shippoState.transactionRequests()).toHaveLength(2);
  });

  it("answers Shippo's refusal with its reason and keeps one failed row", async () => {
    const { paymentIntentId, orderId } = await checkout({ street: SHIPPO_TEST_ADDRESSES.labelErrorStreet });
    await confirmPayment(ctx, paymentIntentId);
    await runFulfilmentJob(ctx);
    const caller = createCallerFactory(appRouter)({
      app: ctx,
      user: { id: 1, username: "boss", email: "boss@example.com", isAdmin: true },
      clientIp: "203.0.113.9",
    });
    await expect(caller.admin.orders.buyLabel({ id: orderId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `The label could not be bought: ${SHIPPO_LABEL_ERROR_MESSAGE}`,
    });
    expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "failed", errorMessage: SHIPPO_LABEL_ERROR_MESSAGE })]);
  });

  it("refuses unpaid, cancelled and unknown orders without calling Shippo", async () => {
    const { orderId: unpaid } = await checkout();
    const unpaidAnswer = await buy(unpaid);
    expect(unpaidAnswer.status).toBe(409);
    expect((await unpaidAnswer.json()).message).toBe("Only a paid order can get a shipping label.");

    const { paymentIntentId, orderId } = await checkout();
    await confirmPayment(ctx, paymentIntentId);
    await runFulfilmentJob(ctx);
    await ctx.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", orderId).execute();
    await ctx.db.deleteFrom("shippingLabels").where("orderId", "=", orderId).execute();
    const before = shippoState.transactionRequests().length;
    const cancelled = await buy(orderId);
    expect(cancelled.status).toBe(409);
    expect((await cancelled.json()).message).toBe("A cancelled or refunded order ships nothing.");
    expect((await buy(999_999)).status).toBe(404);
    expect(shippoState.transactionRequests()).toHaveLength(before);
  });
});

/** Polls (real time) until `done` holds, or fails after `ms`. */
async function until(done: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the fulfilment job (decision 0027)", () => {
  it("answers the payment before the e-mail and the label; woken by the payment, the job sends and buys them at once", async () => {
    // A poll a minute away: only the nudge of the payment confirmed in this process can be this quick.
    const job = startFulfilmentJob(ctx, { holder: "solo-worker", pollMs: 60_000 });
    try {
      const { paymentIntentId, orderId } = await checkout();
      await new Promise((resolve) => setTimeout(resolve, 50)); // its first, empty pass is over
      const transactions = shippoState.transactionRequests().length;
      expect(await confirmPayment(ctx, paymentIntentId)).toMatchObject({ status: "paid", firstTime: true });
      // The answer is back and nothing was bought or sent on its way.
      expect(await labelsOf(orderId)).toEqual([]);
      expect(await mailsOf(orderId)).toEqual([]);
      await until(async () => (await orderRow(orderId)).fulfilledAt !== null, 2_000);
      expect(await labelsOf(orderId)).toEqual([expect.objectContaining({ status: "created", carrier: "USPS" })]);
      expect(await mailsOf(orderId)).toEqual([expect.objectContaining({ status: "sent" })]);
      expect(shippoState.transactionRequests()).toHaveLength(transactions + 1);
    } finally {
      await job.stop();
    }
    expect(await ctx.db.selectFrom("leases").select("holder").where("name", "=", "fulfilment").execute()).toEqual([]);
  });

  describe("with two workers on one database", () => {
    // Each worker has its own connection, identity and job, as under `npm start`.
    const { workerA, workerB } = twoWorkers(vendors);
    let drop: number;
    beforeAll(async () => {
      const row = await workerA.db
        .insertInto("products")
        .values({ name: "Drop Hoodie", description: "Raced for", priceCents: 9000, inventory: 100, weight: 2 })
        .returning("id")
        .executeTakeFirstOrThrow();
      drop = row.id;
    });
    const fulfilled = async (ids: number[]) => {
      const rows = await workerA.db.selectFrom("orders").select("fulfilledAt").where("id", "in", ids).execute();
      return rows.every((row) => row.fulfilledAt !== null);
    };
    async function expectOneEach(ids: number[]) {
      for (const id of ids) {
        expect(await labelsOf(id, workerA)).toEqual([expect.objectContaining({ status: "created" })]);
        expect(await mailsOf(id, workerA)).toEqual([expect.objectContaining({ status: "sent" })]);
      }
    }

    it("buys each paid order's label once, whichever worker took the payment, and only the lease holder works", async () => {
      const ids: number[] = [];
      for (const worker of [workerA, workerB, workerA, workerB, workerA, workerB]) {
        const { paymentIntentId, orderId } = await checkout({}, worker, drop);
        expect(await confirmPayment(worker, paymentIntentId)).toMatchObject({ status: "paid", firstTime: true });
        ids.push(orderId);
      }
      const transactions = shippoState.transactionRequests().length;
      const jobs = [
        startFulfilmentJob(workerA, { holder: "worker-a", pollMs: 20 }),
        startFulfilmentJob(workerB, { holder: "worker-b", pollMs: 20 }),
      ];
      try {
        await until(() => fulfilled(ids));
        const leases = await workerA.db.selectFrom("leases").select("holder").where("name", "=", "fulfilment").execute();
        expect(leases).toHaveLength(1);
        await expectOneEach(ids);
        expect(shippoState.transactionRequests()).toHaveLength(transactions + ids.length);

        // The leader stops (a deploy): it gives the lease up, and the other worker takes over at its next try.
        const leader = leases[0]!.holder === "worker-a" ? 0 : 1;
        const follower = leader === 0 ? workerB : workerA;
        await jobs[leader]!.stop();
        follower.clock.advance(5_000);
        const { paymentIntentId, orderId } = await checkout({}, follower, drop);
        await confirmPayment(follower, paymentIntentId);
        await until(() => fulfilled([orderId]));
        await expectOneEach([orderId]);
        expect(await workerA.db.selectFrom("leases").select("holder").where("name", "=", "fulfilment").execute()).toEqual([
          { holder: leader === 0 ? "worker-b" : "worker-a" },
        ]);
      } finally {
        await Promise.all(jobs.map((job) => job.stop()));
      }
    });

    it("buys each label once even when both workers' jobs work the same orders at the same moment", async () => {
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        const { paymentIntentId, orderId } = await checkout({}, workerA, drop);
        await confirmPayment(workerA, paymentIntentId);
        ids.push(orderId);
      }
      const transactions = shippoState.transactionRequests().length;
      // As two leaders would during a lease handover: each order's own claim keeps them apart.
      await Promise.all([fulfilDueOrders(workerA), fulfilDueOrders(workerB), fulfilDueOrders(workerA), fulfilDueOrders(workerB)]);
      await runFulfilmentJob(workerB);
      expect(await fulfilled(ids)).toBe(true);
      await expectOneEach(ids);
      expect(shippoState.transactionRequests()).toHaveLength(transactions + ids.length);
    });
  });
});
