import type { ActionFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { DomainError } from "#server/errors";
import { sendTestEmail } from "#server/services/mail/test-email";
import { requireAdminPage } from "#server/http/auth";
import { redirectWithToast } from "#server/http/flash";

/**
 * The pre-drop checklist's "Send a test e-mail" (a form post to the dashboard, with or without
 * JavaScript): mails the signed-in admin, back to the dashboard with a toast.
 */
export async function testEmailAction({ request }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const user = await requireAdminPage(ctx, request);
  try {
    const { message } = await sendTestEmail(ctx, user.email);
    return redirectWithToast(ctx, request, "/admin", { kind: "success", title: "Test e-mail sent", description: message });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return redirectWithToast(ctx, request, "/admin", { kind: "error", title: "Test e-mail failed", description: error.message });
  }
}
