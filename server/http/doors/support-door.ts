import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { SUPPORT_MESSAGES, supportOrderNumberOf, supportSchema } from "#server/contracts/support";
import { PRIVATE_NO_STORE } from "#server/http/cache/cache-control";
import { TooMany } from "#server/errors";
import { sendSupportMessage } from "#server/services/store/support";
import { clientIpOf } from "#server/http/requests/client-ip";
import { isConnectionLost } from "#server/http/store-busy";
import { readForm } from "#server/http/requests/request-body";
import { logError } from "#server/observability/log";

export interface SupportLoaderData {
  /** The order the link names (the order page's "Need help with this order?"), filled in the form. */
  orderNumber: string | null;
}

/**
 * /support: the form, its order number filled from `?orderNumber=`. Such a page is the visitor's
 * own: the page cache hands it on (decision 0051) and nobody keeps it; without one it is the
 * cached page everyone shares.
 */
export function supportLoader({ request }: LoaderFunctionArgs) {
  const orderNumber = supportOrderNumberOf(new URL(request.url).searchParams.get("orderNumber"));
  return data<SupportLoaderData>({ orderNumber }, orderNumber ? { headers: { "Cache-Control": PRIVATE_NO_STORE } } : {});
}

export interface SupportActionData {
  sent: boolean;
  lastResult: SubmissionResult<string[]>;
  notice: { kind: "success" | "error"; title: string; description: string } | null;
}

/** The /support form's action: validates, stores and mails; the page shows "Message Sent!" after. */
export async function supportAction({ request, context }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const submission = parseWithZod(await readForm(request), { schema: supportSchema });
  if (submission.status !== "success") {
    return data<SupportActionData>({ sent: false, lastResult: submission.reply(), notice: null }, { status: 400 });
  }
  try {
    await sendSupportMessage(ctx, submission.value, clientIpOf(context));
    return data<SupportActionData>({
      sent: true,
      lastResult: submission.reply({ resetForm: true }),
      notice: { kind: "success", title: SUPPORT_MESSAGES.successTitle, description: SUPPORT_MESSAGES.successDescription },
    });
  } catch (error) {
    // The database out of reach for a moment: the 503 page that says to try again (decision 0041).
    if (isConnectionLost(error)) throw error;
    const description = error instanceof TooMany ? error.message : SUPPORT_MESSAGES.failureDefault;
    if (!(error instanceof TooMany)) logError("The request failed", error);
    return data<SupportActionData>(
      { sent: false, lastResult: submission.reply(), notice: { kind: "error", title: SUPPORT_MESSAGES.failureTitle, description } },
      { status: error instanceof TooMany ? 429 : 500 },
    );
  }
}
