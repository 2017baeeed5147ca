import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { cookiesFor } from "#server/http/requests/cookies";
import { flashHeader } from "#server/http/flash";
import { quickVisitor, rawCookie, readVisitor } from "#server/http/visitor";
import { addToCart, getCart, removeFromCart } from "#server/services/cart/cart";
import { createSession } from "#server/services/accounts/sessions";
import { ensureAdmin } from "#server/services/accounts/users";
import { twoWorkers, type TestContext } from "../setup/context";
import { addProduct } from "./store-helpers";

// The visitor a cached page is filled for (decision 0017), read in one worker while another
// writes: only the database file connects them.
const { workerA, workerB } = twoWorkers();
const plain = new Request("http://localhost/");
beforeEach(() => {
  workerA.clock.set("2026-06-01T12:00:00.000Z");
  workerB.clock.set("2026-06-01T12:00:00.000Z");
});

async function newBag(): Promise<{ id: string; cookie: string }> {
  const id = crypto.randomBytes(18).toString("base64url");
  const line = await cookiesFor(workerA.config, plain).cart.serialize(id);
  return { id, cookie: line.split(";")[0]! };
}

// What the page shows: the quick read when it can, else the full one (as the page cache does).
async function countSeenBy(worker: TestContext, cookie: string): Promise<number> {
  const read = quickVisitor(worker, cookie) ?? readVisitor(worker, new Request("http://localhost/store", { headers: { Cookie: cookie } }));
  return (await read).visitor.cartCount;
}

describe("the visitor of a cached page", () => {
  it("sees a unit added through another worker at once, every time, and only in their own bag", async () => {
    const tee = await addProduct(workerA, { name: "Drop Tee", inventory: 50 });
    const alice = await newBag();
    const bob = await newBag();
    await addToCart(workerA, alice.id, tee, 2);
    expect(await countSeenBy(workerB, alice.cookie)).toBe(2);
    expect(await countSeenBy(workerB, bob.cookie)).toBe(0);

    await addToCart(workerA, alice.id, tee, 1);
    await addToCart(workerA, bob.id, tee, 4);
    const [aliceSees, bobSees] = await Promise.all([countSeenBy(workerB, alice.cookie), countSeenBy(workerB, bob.cookie)]);
    expect(aliceSees).toBe(3);
    expect(bobSees).toBe(4);

    await removeFromCart(workerA, bob.id, tee);
    expect(await countSeenBy(workerB, bob.cookie)).toBe(0);
  });

  it("leaves out a hidden product's lines and an unreleased countdown product's, as the bag does", async () => {
    const kept = await addProduct(workerA, { name: "Kept Hoodie", inventory: 5 });
    const hidden = await addProduct(workerA, { name: "Pulled Cap", inventory: 5 });
    const later = await addProduct(workerA, { name: "Next Drop", inventory: 5 });
    const bag = await newBag();
    await addToCart(workerA, bag.id, kept, 1);
    await addToCart(workerA, bag.id, hidden, 2);
    await addToCart(workerA, bag.id, later, 3);
    expect(await countSeenBy(workerB, bag.cookie)).toBe(6);

    await workerA.db.updateTable("products").set({ isVisible: 0 }).where("id", "=", hidden).execute();
    // No line waits on a countdown: the sum the statement makes itself.
    expect(await countSeenBy(workerB, bag.cookie)).toBe(4);
    await workerA.db
      .updateTable("products")
      .set({ isCountdownRestricted: 1, countdownReleaseDate: "2030-01-01T00:00:00.000Z" })
      .where("id", "=", later)
      .execute();
    expect(await countSeenBy(workerB, bag.cookie)).toBe(1);
    expect((await getCart(workerB, bag.id)).count).toBe(1);

    workerB.clock.set("2030-01-01T00:00:00.000Z");
    expect(await countSeenBy(workerB, bag.cookie)).toBe(4);
    expect((await getCart(workerB, bag.id)).count).toBe(4);
  });

  it("counts a line that waits for the store's launch by the launch date another worker set last", async () => {
    const drop = await addProduct(workerA, { name: "Launch Tee", inventory: 5 });
    const plainTee = await addProduct(workerA, { name: "Plain Tee", inventory: 5 });
    await workerA.db.updateTable("products").set({ isCountdownRestricted: 1, countdownReleaseDate: null }).where("id", "=", drop).execute();
    const setLaunch = (value: string) =>
      workerA.db
        .insertInto("appSettings")
        .values({ key: "countdown_date", value })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
        .execute();
    const bag = await newBag();
    await addToCart(workerA, bag.id, plainTee, 1);
    await addToCart(workerA, bag.id, drop, 2);

    await setLaunch("2026-06-01T13:00:00.000Z");
    expect(await countSeenBy(workerB, bag.cookie)).toBe(1);
    await setLaunch("2026-06-01T11:00:00.000Z");
    expect(await countSeenBy(workerB, bag.cookie)).toBe(3);
    await setLaunch("2026-06-02T00:00:00.000Z");
    expect(await countSeenBy(workerB, bag.cookie)).toBe(1);
    expect((await getCart(workerB, bag.id)).count).toBe(1);
  });

  it("counts nothing for a bag cookie whose signature is not ours", async () => {
    const tee = await addProduct(workerA, { name: "Forged Tee", inventory: 5 });
    const bag = await newBag();
    await addToCart(workerA, bag.id, tee, 2);
    const forged = bag.cookie.replace(/.(?=%22$|$)/, (last) => (last === "A" ? "B" : "A"));
    expect(forged).not.toBe(bag.cookie);
    expect(await countSeenBy(workerB, forged)).toBe(0);
    expect(await countSeenBy(workerB, `other=1; ${bag.cookie}`)).toBe(2);
  });

  it("reads a signed-in name and a flash through the full read, with the flash cleared", async () => {
    await ensureAdmin(workerA, { username: "ada", password: "ada-password-1", email: "ada@example.com" });
    const user = await workerA.db.selectFrom("users").select("id").where("username", "=", "ada").executeTakeFirstOrThrow();
    const { token } = await createSession(workerA, user.id);
    const session = (await cookiesFor(workerA.config, plain).session.serialize(token)).split(";")[0]!;
    const flash = (await flashHeader(workerA, plain, { kind: "success", title: "Saved" })).split(";")[0]!;
    const bag = await newBag();
    const cookie = `${bag.cookie}; ${session}; ${flash}`;
    expect(quickVisitor(workerB, cookie)).toBeNull();

    const { visitor, setCookies } = await readVisitor(workerB, new Request("http://localhost/", { headers: { Cookie: cookie } }));
    expect(visitor).toEqual({
      cartCount: 0,
      user: { username: "ada", isAdmin: true },
      toast: { id: expect.any(String), kind: "success", title: "Saved" },
    });
    expect(setCookies).toEqual([expect.stringMatching(/^flash=; Max-Age=0/)]);

    // Signed out (the session row gone through the other worker): no name any more.
    await workerA.db.deleteFrom("sessions").execute();
    const after = await readVisitor(workerB, new Request("http://localhost/", { headers: { Cookie: session } }));
    expect(after.visitor.user).toBeNull();
  });

  it("takes the first of two cookies of one name, as the cookie parser does", () => {
    expect(rawCookie("a=1; cart=first; cart=second", "cart")).toBe("first");
    expect(rawCookie("xcart=1;  cart = v ", "cart")).toBe("v");
    expect(rawCookie("carts=1", "cart")).toBeUndefined();
  });
});
