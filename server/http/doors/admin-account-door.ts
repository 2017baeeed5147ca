import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { type AccountActionData, changePasswordSchema, PASSWORD_MESSAGES, SHIPPING_TEST_MESSAGES } from "#server/contracts/admin-settings";
import { DomainError } from "#server/errors";
import { authenticate, requireAdminPage } from "#server/http/auth";
import { statusOf } from "#server/http/error-status";
import { changePassword, runShippingTest, ShippingTestFailed } from "#server/services/accounts/account";
import { readForm } from "#server/http/requests/request-body";

// Passwords are never sent back into the page, not even after a failed attempt.
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

/** The Account tab (/admin/settings). Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function accountLoader(request: Request) {
  const ctx = await getAppContext();
  const user = await requireAdminPage(ctx, request);
  const shippo = ctx.config.shippo.apiKey;
  return {
    username: user.username,
    email: user.email,
    shippingProvider: shippo ? (shippo.startsWith("shippo_test_") ? "shippo-test" : "shippo-live") : "local",
  } as const;
}

/** The Account tab's action: the password form and the shipping test (both work without JavaScript). */
export async function accountAction({ request }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const user = await requireAdminPage(ctx, request);
  const form = await readForm(request);
  const intent = form.get("intent");

  if (intent === "change-password") {
    const submission = parseWithZod(form, { schema: changePasswordSchema });
    const reply = (status: number, notice: AccountActionData["notice"], fieldErrors?: Record<string, string[]>) =>
      data<AccountActionData>(
        { intent, notice, lastResult: submission.reply({ hideFields: PASSWORD_FIELDS, resetForm: status === 200, fieldErrors }) },
        { status },
      );
    if (submission.status !== "success") return reply(400, null);
    try {
      // The session in hand stays signed in; the user's others are signed out.
      const { token } = await authenticate(ctx, request);
      await changePassword(ctx, user, token, submission.value);
      return reply(200, { kind: "success", title: PASSWORD_MESSAGES.updated, description: PASSWORD_MESSAGES.updatedDescription });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return reply(statusOf(error), { kind: "error", title: PASSWORD_MESSAGES.failed, description: error.message }, error.fieldErrors);
    }
  }

  if (intent === "test-shipping") {
    try {
      return data<AccountActionData>({ intent, result: await runShippingTest(ctx), notice: null });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = error instanceof ShippingTestFailed ? 502 : statusOf(error);
      return data<AccountActionData>(
        { intent, result: null, notice: { kind: "error", title: SHIPPING_TEST_MESSAGES.failed, description: error.message } },
        { status },
      );
    }
  }
  throw data({ message: "Unknown form." }, { status: 400 });
}
