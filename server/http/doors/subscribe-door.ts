import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { HONEYPOT_FIELD, SUBSCRIBE_MESSAGES, subscribeSchema, type SubscribeActionData } from "#server/contracts/subscribe";
import { Conflict, TooMany } from "#server/errors";
import { subscribe } from "#server/services/mail/subscribers";
import { clientIpOf } from "#server/http/requests/client-ip";
import { isConnectionLost } from "#server/http/store-busy";
import { readForm } from "#server/http/requests/request-body";
import { logError } from "#server/observability/log";

/**
 * The sign-up card's form action, shared by every page that shows the card (it posts to the
 * page it is on, so it works without JavaScript). The notice is returned, not flashed: the page
 * shows it inline, and with JavaScript as a toast (useNoticeToast). A flash cookie here would
 * resurface on the next page after a no-JS post, which renders in the same request.
 */
export async function subscribeAction({ request, context }: ActionFunctionArgs, formData?: FormData) {
  const ctx = await getAppContext();
  const form = formData ?? (await readForm(request));
  const submission = parseWithZod(form, { schema: subscribeSchema });
  const reply = (notice: SubscribeActionData["notice"], status: number, resetForm = false) =>
    data<SubscribeActionData>({ intent: "subscribe", lastResult: submission.reply({ resetForm }), notice }, { status });

  if (submission.status !== "success") return reply(null, 400);
  const success = {
    kind: "success" as const,
    title: SUBSCRIBE_MESSAGES.successTitle,
    description: SUBSCRIBE_MESSAGES.successDescription(ctx.config.brand.name),
  };
  // A filled honeypot is a bot: it is told what a person would be told, and nothing is stored.
  if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") return reply(success, 200, true);
  try {
    await subscribe(ctx, submission.value, clientIpOf(context));
    return reply(success, 200, true);
  } catch (error) {
    if (error instanceof Conflict) return reply({ kind: "error", title: SUBSCRIBE_MESSAGES.failureTitle, description: error.message }, 409);
    if (error instanceof TooMany) return reply({ kind: "error", title: SUBSCRIBE_MESSAGES.failureTitle, description: error.message }, 429);
    // The database out of reach for a moment: the 503 page that says to try again (decision 0041).
    if (isConnectionLost(error)) throw error;
    logError("The request failed", error);
    return reply({ kind: "error", title: SUBSCRIBE_MESSAGES.failureTitle, description: SUBSCRIBE_MESSAGES.failure }, 500);
  }
}
