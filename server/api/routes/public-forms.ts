import { subscribeSchema } from "#server/contracts/subscribe";
import { supportSchema } from "#server/contracts/support";
import { clientIpOf } from "#server/http/requests/client-ip";
import { subscribe } from "#server/services/mail/subscribers";
import { sendSupportMessage } from "#server/services/store/support";
import { route } from "#server/api/route";

export const publicFormRoutes = [
  /**
   * POST /api/subscribe {email} → 201 {id, email, subscribedAt}. 400 with the spec's messages,
   * 409 for an address already on the list, 429 when one network signs up too often.
   * No honeypot here: JSON callers are programs by definition, the rate limit is their fence.
   */
  route({
    method: "POST",
    path: "/api/subscribe",
    guard: "public",
    input: subscribeSchema,
    status: 201,
    handle: ({ input, context, ctx }) => subscribe(ctx, input, clientIpOf(context)),
  }),

  /** POST /api/support/contact: stores the message and mails it to support. 201 {id, message}. */
  route({
    method: "POST",
    path: "/api/support/contact",
    guard: "public",
    input: supportSchema,
    status: 201,
    handle: async ({ input, context, ctx }) => {
      const { id } = await sendSupportMessage(ctx, input, clientIpOf(context));
      return { id, message: "Message sent successfully" };
    },
  }),
];
