import { supportSchema } from "../../server/contracts/support";
import { clientIpOf } from "../../server/http/client-ip";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { sendSupportMessage } from "../../server/services/support";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/support/contact: stores the message and mails it to support. 201 {id, message}. */
export const action = rest(async ({ request, context, ctx }) => {
  const input = await parseJsonBody(request, supportSchema);
  const { id } = await sendSupportMessage(ctx, input, clientIpOf(context));
  return Response.json({ id, message: "Message sent successfully" }, { status: 201 });
});
