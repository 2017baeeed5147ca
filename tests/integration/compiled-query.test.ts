// Queries compiled once (db/compiled-query.ts, issue 24): each run gets its own values, as the
// builder's query would, on the engine the suite runs on, inside and outside a transaction.
import { describe, expect, it } from "vitest";
import { compiledOnce } from "#db/compiled-query";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();

const settingOf = compiledOnce((db, $: { key: string }) =>
  db.selectFrom("appSettings").select(["key", "value", "updatedAt"]).where("key", "=", $.key),
);
const putSetting = compiledOnce((db, $: { key: string; value: string; updatedAt: string }) =>
  db.insertInto("appSettings").values({ key: $.key, value: $.value, updatedAt: $.updatedAt }),
);
const renameSettings = compiledOnce((db, $: { value: string; prefix: string }) =>
  db.updateTable("appSettings").set({ value: $.value }).where("key", "like", $.prefix),
);

describe("a query compiled once", () => {
  it("answers each run with that run's values, in the builder's camelCase rows", async () => {
    await putSetting.run(ctx.db, { key: "cq_one", value: "first", updatedAt: "2026-11-29T00:00:00.000Z" });
    await putSetting.run(ctx.db, { key: "cq_two", value: "second", updatedAt: "2026-11-29T00:00:01.000Z" });

    expect(await settingOf.first(ctx.db, { key: "cq_one" })).toEqual({
      key: "cq_one",
      value: "first",
      updatedAt: "2026-11-29T00:00:00.000Z",
    });
    expect(await settingOf.first(ctx.db, { key: "cq_two" })).toEqual({
      key: "cq_two",
      value: "second",
      updatedAt: "2026-11-29T00:00:01.000Z",
    });
    const built = await ctx.db.selectFrom("appSettings").select(["key", "value", "updatedAt"]).where("key", "=", "cq_two").execute();
    expect(await settingOf.all(ctx.db, { key: "cq_two" })).toEqual(built);
    expect(await settingOf.first(ctx.db, { key: "cq_none" })).toBeUndefined();
  });

  it("keeps a hostile value a value: SQL in it matches nothing and changes nothing", async () => {
    await putSetting.run(ctx.db, { key: "cq_safe", value: "kept", updatedAt: "2026-11-29T00:00:00.000Z" });
    expect(await settingOf.all(ctx.db, { key: "x' OR '1'='1" })).toEqual([]);
    const changed = await renameSettings.run(ctx.db, { value: "gone", prefix: "nothing' OR key LIKE '%" });
    expect(Number(changed.numAffectedRows)).toBe(0);
    expect((await settingOf.first(ctx.db, { key: "cq_safe" }))?.value).toBe("kept");
  });

  it("reports the rows a write changed", async () => {
    await putSetting.run(ctx.db, { key: "cq_w1", value: "a", updatedAt: "2026-11-29T00:00:00.000Z" });
    await putSetting.run(ctx.db, { key: "cq_w2", value: "b", updatedAt: "2026-11-29T00:00:00.000Z" });
    const result = await renameSettings.run(ctx.db, { value: "renamed", prefix: "cq_w%" });
    expect(Number(result.numAffectedRows)).toBe(2);
    expect((await settingOf.first(ctx.db, { key: "cq_w2" }))?.value).toBe("renamed");
  });

  it("runs on a transaction's connection, and goes with its rollback", async () => {
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await putSetting.run(trx, { key: "cq_trx", value: "inside", updatedAt: "2026-11-29T00:00:00.000Z" });
        expect((await settingOf.first(trx, { key: "cq_trx" }))?.value).toBe("inside");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await settingOf.first(ctx.db, { key: "cq_trx" })).toBeUndefined();
  });

  it("refuses a run that leaves a value out, before the database sees it", async () => {
    const incomplete = { key: "cq_missing", value: "never" } as { key: string; value: string; updatedAt: string };
    await expect(putSetting.run(ctx.db, incomplete)).rejects.toThrow("compiledOnce: no value for $.updatedAt.");
    expect(await settingOf.first(ctx.db, { key: "cq_missing" })).toBeUndefined();
  });
});
