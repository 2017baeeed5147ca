// Issue 26 (decision 0047): the admin Draws tab's door, as a browser without JavaScript posts to
// it: admins only, create from the form (New York wall-clock times, units per size), Draw after
// the close, Delete before entries open, each answered with a message and the row in the database.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import type { AdminDrawsActionData, AdminDrawsView } from "#server/contracts/admin-draws";
import { adminDrawsAction, adminDrawsLoader } from "#server/http/doors/admin-draws-door";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "drawer", password: "drawer-password", email: "drawer@example.com" });
  await api("POST", "/api/login", { body: { username: "drawer", password: "drawer-password" }, jar: admin });
});
// 08:00 in New York (EDT).
beforeEach(() => ctx.clock.set("2026-06-01T12:00:00.000Z"));

const post = (form: Record<string, string>, jar: CookieJar | undefined = admin) =>
  runRoute<AdminDrawsActionData>(adminDrawsAction, { path: "/admin/draws", form, jar });
const view = () => runRoute<AdminDrawsView>(adminDrawsLoader, { path: "/admin/draws", jar: admin });

describe("the admin Draws tab", () => {
  it("sends a visitor to sign in and changes nothing for them", async () => {
    const productId = await addProduct(ctx, { name: "Guarded Tee" });
    expect((await runRoute(adminDrawsLoader, { path: "/admin/draws" })).status).toBe(302);
    const form = { intent: "create", productId: String(productId), entriesOpenAt: "2026-06-01T09:00", entriesCloseAt: "2026-06-01T10:00" };
    expect((await post(form, new CookieJar())).status).toBe(302);
    expect(await ctx.db.selectFrom("draws").select("id").where("productId", "=", productId).execute()).toEqual([]);
  });

  it("creates a draw from the form, lists it, draws it after the close, and offers products without one", async () => {
    const productId = await addProduct(ctx, { name: "Form Drawn Coat", inventory: 5 });
    const bad = await post({ intent: "create", productId: String(productId), entriesOpenAt: "soon", entriesCloseAt: "", units: "" });
    expect(bad.status).toBe(400);
    expect(bad.data.fields).toMatchObject({
      entriesOpenAt: ["Choose when entries open (date and time, New York time)."],
      entriesCloseAt: ["Choose when entries close (date and time, New York time)."],
    });
    const made = await post({
      intent: "create",
      productId: String(productId),
      entriesOpenAt: "2026-06-01T09:00",
      entriesCloseAt: "2026-06-01T10:00",
      claimMinutes: "30",
      units: "2",
    });
    expect(made.status).toBe(201);
    expect(made.data).toEqual({ intent: "create", ok: true, message: "Draw created for Form Drawn Coat.", fields: {} });
    const row = await ctx.db.selectFrom("draws").selectAll().where("productId", "=", productId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      entriesOpenAt: "2026-06-01T13:00:00.000Z",
      entriesCloseAt: "2026-06-01T14:00:00.000Z",
      claimMinutes: 30,
      units: JSON.stringify({ "": 2 }),
    });
    const listed = (await view()).data;
    expect(listed.draws.find((d) => d.id === row.id)).toMatchObject({ state: "upcoming", entries: 0, confirmed: 0 });
    expect(listed.products.some((p) => p.id === productId)).toBe(false);

    const early = await post({ intent: "draw", id: String(row.id), beacon: "b" });
    expect(early.status).toBe(409);
    expect(early.data.message).toBe("Entries are still open: the draw can be made after they close.");
    ctx.clock.set("2026-06-01T14:00:01.000Z");
    const drawn = await post({ intent: "draw", id: String(row.id), beacon: "round-9" });
    expect(drawn.data).toMatchObject({ ok: true, message: "The draw for Form Drawn Coat has been made." });
    expect(await ctx.db.selectFrom("draws").select(["beacon"]).where("id", "=", row.id).executeTakeFirstOrThrow()).toEqual({
      beacon: "round-9",
    });
    expect((await post({ intent: "delete", id: String(row.id) })).status).toBe(409);
  });

  it("takes units per size for a product with sizes, and deletes a draw before entries open", async () => {
    const productId = await addProduct(ctx, { name: "Form Sized Tee", inventory: 3 });
    await ctx.db
      .insertInto("productSizes")
      .values([
        { productId, label: "S", labelKey: "s", position: 0, inventory: 1 },
        { productId, label: "M", labelKey: "m", position: 1, inventory: 2 },
      ])
      .execute();
    expect((await view()).data.products.find((p) => p.id === productId)?.sizes).toEqual([
      { label: "S", inventory: 1 },
      { label: "M", inventory: 2 },
    ]);
    const form = { intent: "create", productId: String(productId), entriesOpenAt: "2026-06-02T09:00", entriesCloseAt: "2026-06-03T09:00" };
    const tooMany = await post({ ...form, units: "S=2" });
    expect(tooMany.data).toMatchObject({
      ok: false,
      message: "Units for size S must not exceed its stock (1).",
      fields: { units: [expect.any(String)] },
    });
    expect((await post({ ...form, units: "m=2" })).status).toBe(201);
    const row = await ctx.db.selectFrom("draws").select(["id", "units"]).where("productId", "=", productId).executeTakeFirstOrThrow();
    expect(JSON.parse(row.units)).toEqual({ S: 0, M: 2 });

    const deleted = await post({ intent: "delete", id: String(row.id) });
    expect(deleted.data).toEqual({ intent: "delete", ok: true, message: "Draw deleted.", fields: {} });
    expect(await ctx.db.selectFrom("draws").select("id").where("id", "=", row.id).execute()).toEqual([]);
  });
});
