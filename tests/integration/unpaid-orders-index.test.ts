import { CompiledQuery } from "kysely";
import { expect, it } from "vitest";
import { createTestContext, describeOnSqliteOnly } from "../setup/context";

// Process Order finds the bag's own earlier unpaid order (checkout.ts) by the index of migration
// 0028, not by reading every order the store ever took: once per shopper of every drop.
describeOnSqliteOnly("the query plan is SQLite's; PostgreSQL's planner scans a table this small whatever the indexes")(
  "finding a bag's unpaid order",
  () => {
    const ctx = createTestContext();

    it("searches the unpaid orders' session index instead of scanning the orders", async () => {
      const query = ctx.db
        .selectFrom("orders")
        .select("id")
        .where("sessionId", "=", "a-bag-session-0000001")
        .where("status", "=", "pending")
        .where("paidAt", "is", null)
        .compile();
      const plan = await ctx.db
        .withoutPlugins()
        .executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
      const details = plan.rows.map((row) => row.detail).join("\n");
      expect(details).toMatch(/SEARCH orders USING INDEX orders_unpaid_session \(session_id=\?\)/);
      expect(details).not.toMatch(/SCAN orders/);
    });

    it("finds the unpaid orders past their hold by the hold-expiry index (migration 0029), not by scanning the orders", async () => {
      // holds.ts releaseExpiredHolds: each shopper a drop turns away at Process Order runs it.
      const query = ctx.db
        .selectFrom("orders")
        .select("id")
        .where("status", "=", "pending")
        .where("paidAt", "is", null)
        .where("holdExpiresAt", "<=", "2026-11-29T06:00:00.000Z")
        .compile();
      const plan = await ctx.db
        .withoutPlugins()
        .executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
      const details = plan.rows.map((row) => row.detail).join("\n");
      expect(details).toMatch(/SEARCH orders USING INDEX orders_unpaid_hold_expiry \(hold_expires_at<\?\)/);
      expect(details).not.toMatch(/SCAN orders/);
    });
  },
);
