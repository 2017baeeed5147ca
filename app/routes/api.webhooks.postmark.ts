import crypto from "node:crypto";
import { z } from "zod";
import { jsonError, methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { unsubscribeByEmail } from "../../server/services/unsubscribe";

/** The credentials Postmark is given in the webhook URL (https://user:password@host/...). */
function webhookCredentials(env: Record<string, string | undefined> = process.env): { user: string; password: string } | null {
  const user = env.POSTMARK_WEBHOOK_USER;
  const password = env.POSTMARK_WEBHOOK_PASSWORD;
  return user && password ? { user, password } : null;
}

// Digests first: timingSafeEqual needs equal lengths, and the length must not leak either.
const same = (a: string, b: string) =>
  crypto.timingSafeEqual(crypto.createHash("sha256").update(a).digest(), crypto.createHash("sha256").update(b).digest());

function authorised(request: Request, expected: { user: string; password: string }): boolean {
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

const webhookSchema = z.looseObject({
  RecordType: z.string(),
  Recipient: z.string().optional(),
  SuppressSending: z.boolean().optional(),
});

/**
 * POST /api/webhooks/postmark: Postmark's SubscriptionChange webhook. A recipient who unsubscribed
 * through Postmark's own link, complained or hard-bounced (SuppressSending true) is marked
 * unsubscribed here too, so the store never mails them again. Other record types are
 * acknowledged and ignored. 404 until POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD are set.
 */
export const action = rest(async ({ request, ctx }) => {
  const expected = webhookCredentials();
  if (!expected) return jsonError(404, "Not found.");
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  if (!authorised(request, expected)) {
    return jsonError(401, "Webhook credentials are missing or wrong.", {}, { "WWW-Authenticate": 'Basic realm="postmark-webhook"' });
  }
  const event = await parseJsonBody(request, webhookSchema);
  if (event.RecordType !== "SubscriptionChange" || event.SuppressSending !== true || !event.Recipient) {
    return Response.json({ message: "Ignored." });
  }
  const changed = await unsubscribeByEmail(ctx, event.Recipient);
  return Response.json({ message: changed ? "Unsubscribed." : "Already unsubscribed or unknown." });
});

export const loader = rest(async () => (webhookCredentials() ? methodNotAllowed(["POST"]) : jsonError(404, "Not found.")));
