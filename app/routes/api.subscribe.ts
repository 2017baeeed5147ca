import { subscribeSchema } from "../../server/contracts/subscribe";
import { clientIpOf } from "../../server/http/client-ip";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { subscribe } from "../../server/services/subscribers";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/subscribe {email} → 201 {id, email, subscribedAt}. 400 with the spec's messages,
 * 409 for an address already on the list, 429 when one network signs up too often.
 * No honeypot here: JSON callers are programs by definition, the rate limit is their fence.
 */
export const action = rest(async ({ request, context, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseJsonBody(request, subscribeSchema);
  const subscriber = await subscribe(ctx, input, clientIpOf(context));
  return Response.json(subscriber, { status: 201 });
});
