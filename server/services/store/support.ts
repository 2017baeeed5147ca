import type { SupportInput } from "#server/contracts/support";
import { SUPPORT_TYPES } from "#server/contracts/support";
import type { AppContext } from "#server/context";
import { mailerFor } from "#server/integrations/mail";
import { AddressRateLimiter } from "#server/services/security/rate-limit";
import { escapeHtml } from "#server/services/security/sanitize";
import { logWarning } from "#server/observability/log";

const messagesPerIp = new AddressRateLimiter("support-messages-per-ip", 5, 10 * 60 * 1000);

/**
 * Stores the message first, so nothing is lost if mail fails, then e-mails it to the support
 * address with the customer as Reply-To. Returns the stored message's id.
 */
export async function sendSupportMessage(ctx: AppContext, input: SupportInput, clientIp: string): Promise<{ id: number }> {
  await messagesPerIp.take(
    ctx,
    clientIp,
    (m) => `Too many messages from your network. Please try again in ${m} minute${m === 1 ? "" : "s"}.`,
  );
  const row = await ctx.db
    .insertInto("supportMessages")
    .values({
      name: input.name,
      email: input.email,
      orderNumber: input.orderNumber ?? null,
      subject: input.subject,
      message: input.message,
      supportType: input.supportType,
      createdAt: ctx.clock.now().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  const label = SUPPORT_TYPES.find((t) => t.value === input.supportType)?.label ?? "Other";
  const lines: [string, string][] = [
    ["From", `${input.name} <${input.email}>`],
    ["Topic", label],
    ["Order number", input.orderNumber ?? "—"],
  ];
  const result = await mailerFor(ctx).send({
    stream: "outbound",
    to: ctx.config.brand.supportEmail,
    replyTo: input.email,
    subject: `[Support #${row.id}] ${input.subject}`,
    tag: "support",
    html:
      `<h2>${escapeHtml(input.subject)}</h2>` +
      `<table>${lines.map(([k, v]) => `<tr><th align="left">${k}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>` +
      `<p style="white-space:pre-wrap">${escapeHtml(input.message)}</p>`,
    text: `${lines.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${input.message}`,
  });
  // The message is safe in the database either way; a failed notification is logged for the admin.
  if (result.status === "failed") logWarning(`Support message #${row.id} stored, but its e-mail failed: ${result.error}`);
  return { id: row.id };
}

export async function resetSupportLimits(ctx: AppContext): Promise<void> {
  await messagesPerIp.clear(ctx);
}
