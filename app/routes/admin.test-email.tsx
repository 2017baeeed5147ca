import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "../../server/boot";
import { requireAdminPage } from "../../server/http/auth";
import { redirectWithToast } from "../../server/http/flash";
import { DomainError } from "../../server/errors";
import { sendTestEmail } from "../../server/services/test-email";

/** The checklist's "Send a test e-mail" (a form post, with or without JavaScript): back to the dashboard with a toast. */
export async function action({ request }: ActionFunctionArgs) {
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

/** Nothing to show: an admin who opens the address is sent to the dashboard, anyone else to sign in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(await getAppContext(), request);
  return redirect("/admin");
}
