import { TEST_EMAIL_MESSAGES, TEST_EMAIL_TAG } from "#server/contracts/drops";
import type { AppContext } from "#server/context";
import { Conflict } from "#server/errors";
import { mailerFor } from "#server/integrations/mail";
import { escapeHtml } from "#server/services/security/sanitize";

/**
 * A test e-mail to the signed-in admin, through the same mailer as order mail (Postmark, or the
 * outbox). Its mail_messages row, tagged `test-email`, is the record the pre-drop checklist reads.
 */
export async function sendTestEmail(ctx: AppContext, to: string): Promise<{ message: string }> {
  const brand = ctx.config.brand.name;
  const sent = await mailerFor(ctx).send({
    to,
    subject: `Test e-mail from ${brand}`,
    html: `<p>This is a test e-mail from the ${escapeHtml(brand)} back office, sent before a drop. If you can read it, order mail will reach buyers too.</p>`,
    text: `This is a test e-mail from the ${brand} back office, sent before a drop. If you can read it, order mail will reach buyers too.`,
    stream: "outbound",
    tag: TEST_EMAIL_TAG,
  });
  if (sent.status === "failed") throw new Conflict(TEST_EMAIL_MESSAGES.failed(sent.error ?? "unknown error"));
  return { message: TEST_EMAIL_MESSAGES.sent(to) };
}
