// The outbox's search ignores case and takes what the admin typed literally, on either engine
// (SQLite's LIKE ignores ASCII case, PostgreSQL's does not: run with STORE_TEST_DB=postgres too).
import { expect, it } from "vitest";
import { listOutbox } from "#server/services/mail/outbox";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();

async function record(toAddress: string, subject: string) {
  await ctx.db
    .insertInto("mailMessages")
    .values({
      stream: "outbound",
      toAddress,
      fromAddress: "shop@example.com",
      subject,
      htmlBody: "<p>hi</p>",
      status: "stored",
      createdAt: ctx.clock.now().toISOString(),
    })
    .execute();
}

it("finds a message by address or subject whatever the case, and a % as a %", async () => {
  await record("Ada.Buyer@Example.com", "Your order #1001");
  await record("bo@example.com", "50% off the Heritage Tee");
  await record("cy@example.com", "Welcome");
  const subjects = async (q: string) => (await listOutbox(ctx, { q })).messages.map((m) => m.subject).sort();
  expect(await subjects("ada.buyer@EXAMPLE")).toEqual(["Your order #1001"]);
  expect(await subjects("heritage")).toEqual(["50% off the Heritage Tee"]);
  expect(await subjects("50%")).toEqual(["50% off the Heritage Tee"]);
  expect(await subjects("0_ off")).toEqual([]);
});

it("shows the last page for a page past it, and the first for what is no page (a 500 on PostgreSQL before)", async () => {
  for (let i = 0; i < 60; i++) await record(`page${i}@example.com`, `Paged ${i}`);
  const pageOf = async (page: number) => {
    const listed = await listOutbox(ctx, { q: "Paged", page });
    return { page: listed.page, pages: listed.pages, first: listed.messages[0]?.subject, count: listed.messages.length };
  };
  expect(await pageOf(2)).toEqual({ page: 2, pages: 2, first: "Paged 9", count: 10 });
  for (const past of [3, 99_999_999_999, 1e19, 1e300]) expect(await pageOf(past), String(past)).toEqual(await pageOf(2));
  for (const none of [Infinity, -Infinity, NaN, 0, -5])
    expect(await pageOf(none), String(none)).toEqual({ page: 1, pages: 2, first: "Paged 59", count: 50 });
});
