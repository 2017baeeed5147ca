import { INCLUDE_TEST_MESSAGE, parseIncludeTest, type Summary, type SubscriberSeries } from "#server/contracts/reports";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
import { storeToday } from "#server/contracts/store-time";
import { parseRange } from "./report-range";
import { subscriberSeries } from "./subscribers";
import { summaryFor } from "./summary";

export interface ReportParams {
  from?: string | null;
  to?: string | null;
  includeTest?: string | null;
}

/**
 * The summary of store days `from`..`to` (YYYY-MM-DD, New York, both included; the last 30 days
 * without them), as GET /api/admin/reports/summary and tRPC answer it. Bad dates: Invalid (400).
 */
export async function summaryReport(ctx: AppContext, params: ReportParams): Promise<Summary> {
  const includeTest = parseIncludeTest(params.includeTest);
  if (includeTest === null) throw new Invalid(INCLUDE_TEST_MESSAGE, { includeTest: [INCLUDE_TEST_MESSAGE] });
  const range = parseRange(params, storeToday(ctx.clock.now()));
  return summaryFor(ctx, range, includeTest);
}

/** Sign-ups, unsubscribes and the list's size per store day of the range. */
export async function subscriberReport(ctx: AppContext, params: ReportParams): Promise<SubscriberSeries> {
  const range = parseRange(params, storeToday(ctx.clock.now()));
  return { series: await subscriberSeries(ctx, range) };
}
