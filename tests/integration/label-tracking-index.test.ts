import { CompiledQuery } from "kysely";
import { expect, it } from "vitest";
import { createTestContext, describeOnSqliteOnly } from "../setup/context";

// The carrier's tracking events find their label by tracking number (carrier-tracking.ts): by the
// index of migration 0027, not by reading every label the store ever bought.
describeOnSqliteOnly("the query plan is SQLite's; PostgreSQL's planner scans a table this small whatever the indexes")(
  "finding a label by its tracking number",
  () => {
    const ctx = createTestContext();

    it("searches the tracking-number index instead of scanning the labels", async () => {
      const query = ctx.db
        .selectFrom("shippingLabels")
        .select("orderId")
        .where("trackingNumber", "=", "9400100000000000000001")
        .where("status", "=", "created")
        .orderBy("id", "desc")
        .compile();
      const plan = await ctx.db
        .withoutPlugins()
        .executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
      const details = plan.rows.map((row) => row.detail).join("\n");
      expect(details).toMatch(/SEARCH shipping_labels USING INDEX shipping_labels_tracking_number \(tracking_number=\?\)/);
      expect(details).not.toMatch(/SCAN shipping_labels/);
    });
  },
);
