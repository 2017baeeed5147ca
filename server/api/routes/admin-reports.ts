import type { RequestHead } from "#server/http/requests/request-head";
import { subscriberReport, summaryReport } from "#server/services/reporting/rest";
import { route } from "#server/api/route";

const paramsOf = (request: RequestHead) => {
  const params = new URL(request.url).searchParams;
  return { from: params.get("from"), to: params.get("to"), includeTest: params.get("includeTest") };
};

export const adminReportRoutes = [
  /**
   * GET /api/admin/reports/summary?from=YYYY-MM-DD&to=YYYY-MM-DD[&includeTest=1] →
   * `{ orders, revenue, refunds, averageOrder, funnel: { visitors, bagged, checkout, ordered, paid },
   * series: [{ t, orders, revenue }] }`. Days are the store's (New York), both included; without
   * them, the last 30 days. Money in dollars, as the rest of the API. `orders`/`revenue`: paid
   * orders placed in the range (revenue before refunds); `refunds`: money refunded in it; `series`:
   * per hour for a one-day range, else per day, `t` the bucket's start (ISO UTC). Test orders are
   * left out unless `includeTest=1`. A bad date, `from` after `to` or more than 400 days: 400
   * `{ message, errors }`.
   */
  route({
    method: "GET",
    path: "/api/admin/reports/summary",
    guard: "admin",
    handle: ({ request, ctx }) => summaryReport(ctx, paramsOf(request)),
  }),

  /**
   * GET /api/admin/reports/subscribers?from&to → `{ series: [{ t, joined, left, total }] }`: per
   * store day (per hour for one day), sign-ups, unsubscribes and the active list's size at the end
   * of it. Dates as for the summary.
   */
  route({
    method: "GET",
    path: "/api/admin/reports/subscribers",
    guard: "admin",
    handle: ({ request, ctx }) => subscriberReport(ctx, paramsOf(request)),
  }),
];
