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
