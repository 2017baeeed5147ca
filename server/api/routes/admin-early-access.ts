import { EARLY_ACCESS_MESSAGES, earlyAccessCreateSchema, earlyMinutesSchema } from "#server/contracts/early-access";
import { pathId } from "#server/http/rest";
import { siteOrigin } from "#server/http/requests/site-origin";
import { createEarlyAccessLink, earlyAccessOverview, revokeEarlyAccessLink, setEarlyMinutes } from "#server/services/drop/early-access";
import { route } from "#server/api/route";

/** Early-access links (issue 12 part 2, decision 0020). */
export const adminEarlyAccessRoutes = [
  /** GET /api/admin/early-access → `{ earlyMinutes, links: [{ id, email, campaignId, createdAt, openedAt, revokedAt, status }] }`, newest first. */
  route({
    method: "GET",
    path: "/api/admin/early-access",
    guard: "admin",
    handle: ({ ctx }) => earlyAccessOverview(ctx),
  }),

  /** POST /api/admin/early-access `{ email }` → 201 `{ id, url }`: a new link for that subscriber (404 when nobody on the list has it). */
  route({
    method: "POST",
    path: "/api/admin/early-access",
    guard: "admin",
    input: earlyAccessCreateSchema,
    status: 201,
    handle: ({ request, input, ctx }) => createEarlyAccessLink(ctx, input.email, siteOrigin(request, ctx.config)),
  }),

  /** POST /api/admin/early-access/{id}/revoke → the link, revoked (again: unchanged). */
  route({
    method: "POST",
    path: "/api/admin/early-access/:id/revoke",
    guard: "admin",
    handle: ({ params, ctx }) => revokeEarlyAccessLink(ctx, pathId(params.id, EARLY_ACCESS_MESSAGES.notFound)),
  }),

  /** PUT /api/admin/early-access/settings `{ earlyMinutes }` (1–1440; default 30). */
  route({
    method: "PUT",
    path: "/api/admin/early-access/settings",
    guard: "admin",
    input: earlyMinutesSchema,
    handle: ({ input, ctx }) => setEarlyMinutes(ctx, input.earlyMinutes),
  }),
];
