import fs from "node:fs";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { composeEmailSchema } from "#server/contracts/admin-subscribers";
import { NotFound } from "#server/errors";
import { prefersAsync, sendResultResponse } from "#server/http/doors/campaign-door";
import { pathId } from "#server/http/rest";
import { siteOrigin } from "#server/http/requests/site-origin";
import { exportFile, exportSubscribers, getEmailTemplate, listSubscribers } from "#server/services/mail/admin-subscribers";
import { getCampaign, resumeCampaign, sendCampaign } from "#server/services/mail/campaigns";
import { route } from "#server/api/route";

export const adminSubscriberRoutes = [
  /**
   * GET /api/admin/subscribers?page=2&pageSize=50 → `{ subscribers: [{ id, email, subscribedAt }],
   * count, page, pageSize, pages }`, newest first. `count` is every active subscriber (docs/spec.md §7);
   * `subscribers` is one page of them. Without parameters: page 1 of 100. `page` is a whole number
   * from 1, `pageSize` from 1 to 500; anything else is a 400 `{ message, errors: { page | pageSize } }`.
   * A page past the end answers an empty `subscribers` with the real `count` and `pages`.
   */
  route({
    method: "GET",
    path: "/api/admin/subscribers",
    guard: "admin",
    handle: ({ request, ctx }) => {
      const params = new URL(request.url).searchParams;
      return listSubscribers(ctx, { page: params.get("page"), pageSize: params.get("pageSize") });
    },
  }),

  /**
   * GET /api/admin/export-subscribers → `{ count, filename, downloadUrl }`. The CSV is written
   * first; `downloadUrl` (admin-only, GET /api/admin/exports/{file}) is where the browser fetches it.
   */
  route({
    method: "GET",
    path: "/api/admin/export-subscribers",
    guard: "admin",
    handle: ({ ctx }) => exportSubscribers(ctx),
  }),

  /**
   * GET /api/admin/exports/{file}: an export's CSV as a download, for admins only. Only names the
   * export itself makes are accepted, so no path can reach outside DATA_DIR/exports.
   */
  route({
    method: "GET",
    path: "/api/admin/exports/:file",
    guard: "admin",
    handle: async ({ params, ctx }) => {
      const found = exportFile(ctx, params.file);
      const stat = found ? await fs.promises.stat(found.file).catch(() => null) : null;
      if (!found || !stat?.isFile()) throw new NotFound("This export does not exist or has expired. Export the list again.");
      const body = createReadableStreamFromReadable(fs.createReadStream(found.file));
      return new Response(body, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${found.filename}"`,
          "Content-Length": String(stat.size),
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  }),

  /** GET /api/admin/email-template → `{ template }`: the launch-announcement HTML. */
  route({
    method: "GET",
    path: "/api/admin/email-template",
    guard: "admin",
    handle: ({ ctx }) => getEmailTemplate(ctx),
  }),

  /**
   * POST /api/admin/send-email `{ subject, htmlContent }` → `{ message, campaignId, status }`
   * ("Email sent to N subscribers"). Either field missing: 400 "Please provide both subject and
   * content for your email". With `Prefer: respond-async`: 202 at once, progress at the Location.
   */
  route({
    method: "POST",
    path: "/api/admin/send-email",
    guard: "admin",
    input: composeEmailSchema,
    handle: async ({ request, input, ctx, user }) => {
      const background = prefersAsync(request);
      const result = await sendCampaign(ctx, input, user.id, { origin: siteOrigin(request, ctx.config), background });
      return sendResultResponse(result, background);
    },
  }),

  /**
   * GET /api/admin/campaigns/{id} → `{ id, subject, status, total, sent, failed, skipped, pending,
   * createdAt, finishedAt, createdBy, lastError }`: a send's progress, polled while it runs.
   */
  route({
    method: "GET",
    path: "/api/admin/campaigns/:id",
    guard: "admin",
    handle: ({ params, ctx }) => getCampaign(ctx, pathId(params.id, "Campaign not found.")),
  }),

  /**
   * POST /api/admin/campaigns/{id}/resume → as send-email: mails the recipients a failed run left
   * pending or failed, never one already sent. 409 when it is sent already or running right now.
   */
  route({
    method: "POST",
    path: "/api/admin/campaigns/:id/resume",
    guard: "admin",
    handle: async ({ request, params, ctx }) => {
      const id = pathId(params.id, "Campaign not found.");
      const background = prefersAsync(request);
      const result = await resumeCampaign(ctx, id, { origin: siteOrigin(request, ctx.config), background });
      return sendResultResponse(result, background);
    },
  }),
];
