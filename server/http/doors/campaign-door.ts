import type { RequestHead } from "#server/http/requests/request-head";
import type { SendResult } from "#server/contracts/admin-subscribers";

/** RFC 7240 `Prefer: respond-async`: answer 202 once the send is under way, then poll. */
export function prefersAsync(request: RequestHead): boolean {
  return /(^|[,\s])respond-async\b/i.test(request.headers.get("Prefer") ?? "");
}

/**
 * A send's answer: 200 `{ message }` when everyone was mailed; 202 with a Location to poll when
 * it runs in the background; 502 when the mail provider failed part-way (the rest stay queued
 * for POST /api/admin/campaigns/{id}/resume).
 */
export function sendResultResponse(result: SendResult, background: boolean): Response {
  const location = `/api/admin/campaigns/${result.campaignId}`;
  if (background) {
    return Response.json(result, { status: 202, headers: { Location: location, "Preference-Applied": "respond-async" } });
  }
  if (result.status === "sent") return Response.json(result);
  return Response.json({ ...result, errors: {} }, { status: 502, headers: { Location: location } });
}
