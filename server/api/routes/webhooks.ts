import type { RequestHead } from "#server/http/requests/request-head";
import crypto from "node:crypto";
import type Stripe from "stripe";
import { z } from "zod";
import { BODY_LIMITS, readJson, readText } from "#server/http/requests/request-body";
import { Invalid } from "#server/errors";
import { jsonError, parseJsonBody } from "#server/http/rest";
import { handleStripeEvent, verifiedStripeEvent } from "#server/services/checkout/payment-events";
import { unsubscribeByEmail } from "#server/services/mail/unsubscribe";
import { shippoTrackEventSchema } from "#server/contracts/carrier-tracking";
import { applyCarrierTracking } from "#server/services/fulfilment/carrier-tracking";
import { route } from "#server/api/route";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";

// Digests first: timingSafeEqual needs equal lengths, and the length must not leak either.
const same = (a: string, b: string) =>
  crypto.timingSafeEqual(crypto.createHash("sha256").update(a).digest(), crypto.createHash("sha256").update(b).digest());

function authorised(request: RequestHead, expected: { user: string; password: string }): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(request.headers.get("Authorization") ?? "");
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  // Both halves are compared every time, so a right user name is not told apart by timing.
  const userOk = same(decoded.slice(0, colon), expected.user);
  const passwordOk = same(decoded.slice(colon + 1), expected.password);
  return userOk && passwordOk;
}

const postmarkEventSchema = z.looseObject({
  RecordType: z.string(),
  Recipient: z.string().optional(),
  SuppressSending: z.boolean().optional(),
});

// No webhook declares an input: each reads the body itself, after checking who sent it.
export const webhookRoutes = [
  /**
   * POST /api/webhooks/shippo/{token}: Shippo's `track_updated` events for the labels the store
   * bought. The secret is in the URL given to Shippo (SHIPPO_WEBHOOK_TOKEN), compared in constant
   * time; 404 until it is set. In transit moves the order to shipped, delivered to delivered, only
   * forward, the buyer's e-mail once per order; a repeat changes nothing. Other events, statuses
   * and labels not the store's are acknowledged (200) and ignored, so Shippo does not send them again.
   */
  route({
    method: "POST",
    path: "/api/webhooks/shippo/:token",
    guard: "public",
    unavailable: (ctx) => (ctx.config.shippo.webhookToken ? null : "Not found."),
    handle: async ({ request, params, ctx }) => {
      const expected = ctx.config.shippo.webhookToken;
      if (!expected || !same(params.token ?? "", expected)) return jsonError(404, "Not found.");
      // A tracking history can be long: bounded as other webhooks' bodies, then read field by field.
      const parsed = shippoTrackEventSchema.safeParse(await readJson(request, BODY_LIMITS.webhook));
      if (!parsed.success) throw Invalid.fromZod(parsed.error);
      const { event, data } = parsed.data;
      const status = data.tracking_status?.status;
      const outcome =
        event === "track_updated" && status ? await applyCarrierTracking(ctx, { trackingNumber: data.tracking_number, status }) : "ignored";
      return Response.json({ received: true, outcome }, { headers: NO_STORE_HEADERS });
    },
  }),

  /**
   * POST /api/webhooks/stripe: Stripe's payment events. The signature is checked against the raw
   * body before anything is read from it; each event id is processed once. Any answer but 2xx makes
   * Stripe deliver the event again later, so a failure while processing surfaces as a 500.
   */
  route({
    method: "POST",
    path: "/api/webhooks/stripe",
    guard: "public",
    unavailable: (ctx) =>
      ctx.config.payments.mode === "stripe" && ctx.config.payments.webhookSecret ? null : "Stripe webhooks are not configured.",
    handle: async ({ request, ctx }) => {
      const payments = ctx.config.payments;
      if (payments.mode !== "stripe" || !payments.webhookSecret) return jsonError(404, "Stripe webhooks are not configured.");
      const signature = request.headers.get("stripe-signature");
      if (!signature) return jsonError(400, "Invalid signature.");
      // Bounded before anything else is done with it: the signature is over the whole body.
      const payload = await readText(request, BODY_LIMITS.webhook);
      let event: Stripe.Event;
      try {
        event = verifiedStripeEvent(ctx, payload, signature);
      } catch {
        return jsonError(400, "Invalid signature.");
      }

      await handleStripeEvent(ctx, event);
      return Response.json({ received: true }, { headers: NO_STORE_HEADERS });
    },
  }),

  /**
   * POST /api/webhooks/postmark: Postmark's SubscriptionChange webhook. A recipient who unsubscribed
   * through Postmark's own link, complained or hard-bounced (SuppressSending true) is marked
   * unsubscribed here too, so the store never mails them again. Other record types are
   * acknowledged and ignored. 404 until POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD are set.
   */
  route({
    method: "POST",
    path: "/api/webhooks/postmark",
    guard: "public",
    unavailable: (ctx) => (ctx.config.postmark.webhook ? null : "Not found."),
    handle: async ({ request, ctx }) => {
      // The credentials Postmark is given in the webhook URL (https://user:password@host/...).
      const expected = ctx.config.postmark.webhook;
      if (!expected || !authorised(request, expected)) {
        return jsonError(401, "Webhook credentials are missing or wrong.", {}, { "WWW-Authenticate": 'Basic realm="postmark-webhook"' });
      }
      const event = await parseJsonBody(request, postmarkEventSchema);
      if (event.RecordType !== "SubscriptionChange" || event.SuppressSending !== true || !event.Recipient) {
        return Response.json({ message: "Ignored." });
      }
      const changed = await unsubscribeByEmail(ctx, event.Recipient);
      return Response.json({ message: changed ? "Unsubscribed." : "Already unsubscribed or unknown." });
    },
  }),
];
