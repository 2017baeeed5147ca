// Races that only PostgreSQL can run inside one test process: two pools (two workers, or two
// machines) whose transactions really overlap under READ COMMITTED. On SQLite every transaction
// is BEGIN IMMEDIATE, one writer at a time; these check that the services still serialise what
// must be serial when that is no longer true (docs/postgres-plan.md, "Concurrency").
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Db } from "#db/client";
import sharp from "sharp";
import { decrementItem } from "#server/services/cart/cart";
import { processOrder } from "#server/services/checkout/checkout";
import { addProductImage, setPrimaryImage } from "#server/services/catalog/product-images";
import { saveCountdown } from "#server/services/drop/drops";
import { createDraw } from "#server/services/drop/draws";
import { joinLine } from "#server/services/drop/waiting-room";
import { manualClock, type TestContext } from "../setup/context";
import { createPostgresTestContext } from "../setup/postgres-context";
import { describeOnPostgres } from "../setup/postgres-db";
import { addProduct } from "./store-helpers";

const customer = (email: string) => ({
  email,
  name: "Racer",
  phone: "",
  street: "9 Race Rd",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
});

describeOnPostgres("on PostgreSQL, two workers at once", () => {
  const store = createPostgresTestContext();
  let workerB: TestContext;
  let dbB: Db;
  beforeAll(() => {
    dbB = openDatabase(store.ctx.config.database);
    workerB = { ...store.ctx, db: dbB, clock: manualClock(store.ctx.clock.now()) };
  });
  afterAll(() => dbB?.destroy());

  it("give the waiting room's late arrivals distinct places, 1 to n, with nobody refused", async () => {
    const t0 = Date.parse("2027-03-01T17:00:00.000Z");
    await saveCountdown(store.ctx, new Date(t0).toISOString());
    for (const worker of [store.ctx, workerB]) worker.clock.set(new Date(t0 + 1_000));
    const n = 40;
    const joins = Array.from({ length: n }, (_, i) => joinLine(i % 2 ? workerB : store.ctx, { placeId: null, address: `198.51.100.${i}` }));
    const results = await Promise.allSettled(joins);
    const refused = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
    expect(refused).toEqual([]);
    const ids = results.map((r) => (r as PromiseFulfilledResult<{ placeId: string | null }>).value.placeId!);
    expect(new Set(ids).size).toBe(n);
    const rows = await store.ctx.db.selectFrom("waitingRoomPlaces").select("place").orderBy("place").execute();
    expect(rows.map((row) => row.place)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  // Decision 0020 counts a customer's units after this order's rows are written, trusting that two
  // orders of one customer queue. On PostgreSQL they do because Process Order locks the products'
  // rows (FOR UPDATE, in id order) before it takes stock or counts; this checks it, round after round.
  it("let one customer's two simultaneous orders for a product limited to one through exactly once", async () => {
    for (let round = 0; round < 10; round++) {
      const id = await addProduct(store.ctx, { name: `Limit Tee ${round}`, inventory: 5, maxPerCustomer: 1 });
      const bags = [`limit-${round}-a`, `limit-${round}-b`];
      for (const sessionId of bags) await store.ctx.db.insertInto("cartItems").values({ sessionId, productId: id, quantity: 1 }).execute();
      const results = await Promise.allSettled(
        bags.map((sessionId, i) =>
          processOrder(i ? workerB : store.ctx, {
            sessionId,
            customer: customer(i ? `RACER${round}@example.com` : `racer${round}@example.com`),
            shippingMethod: "usps-ground_saver",
          }),
        ),
      );
      const refused = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
      expect(refused, `round ${round}`).toEqual([`Conflict: Limit 1 per customer for Limit Tee ${round}.`]);
    }
  });

  // Two bags holding the same two products in opposite order. Without the rows locked up front in
  // one order, each order's stock UPDATE locked its first product and waited for the other's:
  // PostgreSQL broke the deadlock by failing one of them (40P01), a 500 for a shopper.
  const twoProductBags = async (round: number, name: string, maxPerCustomer: number | null) => {
    const first = await addProduct(store.ctx, { name: `${name} A ${round}`, inventory: 5, maxPerCustomer });
    const second = await addProduct(store.ctx, { name: `${name} B ${round}`, inventory: 5, maxPerCustomer });
    const bags = [`${name}-${round}-a`, `${name}-${round}-b`];
    for (const [sessionId, order] of [
      [bags[0]!, [first, second]],
      [bags[1]!, [second, first]],
    ] as const) {
      for (const productId of order) await store.ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
    }
    return { first, second, bags };
  };

  it("take two bags of the same products in opposite order at once without a deadlock", async () => {
    for (let round = 0; round < 10; round++) {
      const { first, second, bags } = await twoProductBags(round, "crossed", null);
      const results = await Promise.allSettled(
        bags.map((sessionId, i) =>
          processOrder(i ? workerB : store.ctx, {
            sessionId,
            customer: customer(`crossed${round}-${i}@example.com`),
            shippingMethod: "usps-ground_saver",
          }),
        ),
      );
      const refused = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
      expect(refused, `round ${round}`).toEqual([]);
      const stock = await store.ctx.db.selectFrom("products").select("inventory").where("id", "in", [first, second]).execute();
      expect(stock.map((row) => row.inventory)).toEqual([3, 3]);
    }
  });

  it("hold one customer's limit over two multi-item orders in opposite product order: one order, no deadlock", async () => {
    for (let round = 0; round < 10; round++) {
      const { first, second, bags } = await twoProductBags(round, "limited-pair", 1);
      const results = await Promise.allSettled(
        bags.map((sessionId, i) =>
          processOrder(i ? workerB : store.ctx, {
            sessionId,
            customer: customer(i ? `pair.buyer+${round}@gmail.com` : `PairBuyer@googlemail.com`),
            shippingMethod: "usps-ground_saver",
          }),
        ),
      );
      const refused = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
      expect(refused, `round ${round}`).toHaveLength(1);
      expect(refused[0], `round ${round}`).toMatch(new RegExp(`^Conflict: Limit 1 per customer for limited-pair [AB] ${round}\\.$`));
      const stock = await store.ctx.db.selectFrom("products").select("inventory").where("id", "in", [first, second]).execute();
      expect(stock.map((row) => row.inventory)).toEqual([4, 4]);
    }
  });

  it("sell 5 units to exactly 5 of 60 buyers pressing Process Order at once, and never below zero", async () => {
    const id = await addProduct(store.ctx, { name: "Drop Tee", inventory: 5 });
    const bags = Array.from({ length: 60 }, (_, i) => `drop-${i}`);
    for (const sessionId of bags) await store.ctx.db.insertInto("cartItems").values({ sessionId, productId: id, quantity: 1 }).execute();
    const results = await Promise.allSettled(
      bags.map((sessionId, i) =>
        processOrder(i % 2 ? workerB : store.ctx, {
          sessionId,
          customer: customer(`buyer${i}@example.com`),
          shippingMethod: "usps-ground_saver",
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const { inventory } = await store.ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirstOrThrow();
    expect(inventory).toBe(0);
    const held = await store.ctx.db
      .selectFrom("inventoryHolds")
      .select((eb) => eb.fn.sum<number>("quantity").as("units"))
      .where("productId", "=", id)
      .executeTakeFirstOrThrow();
    expect(Number(held.units)).toBe(5);
  });

  // Units going back on the shelf (a buyer's earlier order expired as they press Process Order
  // again, the sweeper's expiry, a late payment's re-take) against orders taking the same sizes.
  // Putting back wrote the size's row, then the product's sum; an order locks the product's row
  // first, then writes the size's: each waited on the other, and PostgreSQL failed one (40P01), a
  // 500 for a shopper. Found by a fuzz of Process Order, one bag's presses at once.
  it("put a held size back on the shelf while others order it, without a deadlock", async () => {
    for (let round = 0; round < 10; round++) {
      const first = await addProduct(store.ctx, { name: `Shelf Tee A ${round}`, inventory: 40 });
      const second = await addProduct(store.ctx, { name: `Shelf Tee B ${round}`, inventory: 40 });
      for (const productId of [first, second]) {
        for (const [position, label] of ["S", "M"].entries()) {
          await store.ctx.db
            .insertInto("productSizes")
            .values({ productId, label, labelKey: label.toLowerCase(), position, inventory: 20 })
            .execute();
        }
      }
      const bag = async (sessionId: string, productIds: number[]) => {
        for (const productId of productIds)
          await store.ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1, size: "M" }).execute();
      };
      // The pressing bag holds the second product's M before the first's: put back in that order.
      await bag(`again-${round}`, [second, first]);
      await processOrder(store.ctx, {
        sessionId: `again-${round}`,
        customer: customer(`again${round}@example.com`),
        shippingMethod: "usps-ground_saver",
      });
      const others = Array.from({ length: 4 }, (_, i) => `other-${round}-${i}`);
      for (const sessionId of others) await bag(sessionId, [first, second]);
      const results = await Promise.allSettled([
        processOrder(workerB, {
          sessionId: `again-${round}`,
          customer: customer(`again${round}@example.com`),
          shippingMethod: "usps-ground_saver",
        }),
        ...others.map((sessionId, i) =>
          processOrder(i % 2 ? workerB : store.ctx, {
            sessionId,
            customer: customer(`${sessionId}@example.com`),
            shippingMethod: "usps-ground_saver",
          }),
        ),
      ]);
      const refused = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      expect(refused, `round ${round}`).toEqual([]);
      // Five orders hold an M of each product now; the first order's went back.
      const sizes = await store.ctx.db
        .selectFrom("productSizes")
        .select(["productId", "label", "inventory"])
        .where("productId", "in", [first, second])
        .orderBy("productId")
        .orderBy("label")
        .execute();
      expect(sizes.map((row) => `${row.label} ${row.inventory}`)).toEqual(["M 15", "S 20", "M 15", "S 20"]);
      const sums = await store.ctx.db.selectFrom("products").select("inventory").where("id", "in", [first, second]).execute();
      expect(sums.map((row) => row.inventory)).toEqual([35, 35]);
    }
  });

  // A product has at most one draw. The create checked for one and then inserted: under READ
  // COMMITTED two creates at once (two admins, a double submit) both found none, and the product
  // had two draws. Found by a race of the admin's doors.
  it("make one draw of four created at once for one product; the others are told it has one", async () => {
    for (let round = 0; round < 5; round++) {
      const productId = await addProduct(store.ctx, { name: `Draw Race Tee ${round}`, inventory: 5 });
      const now = store.ctx.clock.now().getTime();
      const input = {
        productId,
        entriesOpenAt: new Date(now + 3_600_000).toISOString(),
        entriesCloseAt: new Date(now + 7_200_000).toISOString(),
        claimMinutes: 60,
        units: 1,
      };
      const results = await Promise.allSettled(
        [0, 1, 2, 3].map((i) => createDraw(i % 2 ? workerB : store.ctx, input, "https://shop.test")),
      );
      const refused = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
      expect(refused, `round ${round}`).toEqual(Array.from({ length: 3 }, () => "Conflict: This product already has a draw."));
      const draws = await store.ctx.db.selectFrom("draws").select("id").where("productId", "=", productId).execute();
      expect(draws, `round ${round}`).toHaveLength(1);
    }
  });

  // A product shows exactly one primary picture. The switch is one UPDATE over the product's images,
  // but under READ COMMITTED it does not see an image another transaction is adding: without the
  // product row locked first, an upload marked primary racing a switch (or two first uploads)
  // left two primaries.
  it("leave exactly one primary image when uploads and switches of one product race", async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2f5d8a" } })
      .png()
      .toBuffer();
    const primaries = async (productId: number) =>
      (await store.ctx.db.selectFrom("productImages").select("id").where("productId", "=", productId).where("isPrimary", "=", 1).execute())
        .length;
    for (let round = 0; round < 10; round++) {
      // Two first pictures at once: each thinks the product has none yet.
      const id = await addProduct(store.ctx, { name: `Picture Tee ${round}`, inventory: 1 });
      await Promise.all([0, 1, 2, 3].map((i) => addProductImage(i % 2 ? workerB : store.ctx, id, png)));
      expect(await primaries(id)).toBe(1);
      // An upload marked primary against a switch to an existing picture, and two switches.
      const images = await store.ctx.db.selectFrom("productImages").select(["id", "isPrimary"]).where("productId", "=", id).execute();
      const other = images.find((image) => image.isPrimary === 0)!;
      await Promise.all([addProductImage(store.ctx, id, png, { isPrimary: true }), setPrimaryImage(workerB, other.id)]);
      expect(await primaries(id)).toBe(1);
      await Promise.all(images.map((image, i) => setPrimaryImage(i % 2 ? workerB : store.ctx, image.id)));
      expect(await primaries(id)).toBe(1);
      const product = await store.ctx.db.selectFrom("products").select("imagePath").where("id", "=", id).executeTakeFirstOrThrow();
      const primary = await store.ctx.db
        .selectFrom("productImages")
        .select("imagePath")
        .where("productId", "=", id)
        .where("isPrimary", "=", 1)
        .executeTakeFirstOrThrow();
      // The storefront's picture is the primary's.
      expect(product.imagePath).toBe(primary.imagePath);
    }
  });

  // The minus button deletes a line of one or lowers a longer one. Two presses at once on a line of
  // two, under READ COMMITTED without the line locked first: neither saw a line of one to delete,
  // both lowered it, and the second broke CHECK (quantity > 0) with a 500.
  it("take a line of two out of the bag when the minus button is pressed twice at once", async () => {
    const id = await addProduct(store.ctx, { name: "Minus Tee", inventory: 50 });
    const failures: string[] = [];
    for (let round = 0; round < 20; round++) {
      const sessionId = `minus-${round}`;
      await store.ctx.db.insertInto("cartItems").values({ sessionId, productId: id, quantity: 2 }).execute();
      const results = await Promise.allSettled([decrementItem(store.ctx, sessionId, id), decrementItem(workerB, sessionId, id)]);
      failures.push(...results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : [])));
      const line = await store.ctx.db.selectFrom("cartItems").select("quantity").where("sessionId", "=", sessionId).execute();
      expect(line).toEqual([]);
    }
    expect(failures).toEqual([]);
  });
});
