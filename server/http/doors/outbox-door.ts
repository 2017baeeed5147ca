import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { getOutboxMessage, listOutbox } from "#server/services/mail/outbox";
import { requireAdminPage } from "#server/http/auth";
import { rowIdIn } from "#server/contracts/row-id";

const STREAMS = ["outbound", "broadcast"] as const;

/**
 * /admin/outbox: every e-mail the store recorded, newest first (?q= recipient or subject,
 * ?stream=, ?page=), and one opened (?id=). Plain links and a GET form: it works without
 * JavaScript too.
 */
export async function outboxLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const params = new URL(request.url).searchParams;
  const stream = STREAMS.find((s) => s === params.get("stream"));
  const id = rowIdIn(params.get("id") ?? undefined);
  const [outbox, message] = await Promise.all([
    listOutbox(ctx, { q: params.get("q") ?? undefined, stream, page: Number(params.get("page")) || 1 }),
    id === null ? null : getOutboxMessage(ctx, id),
  ]);
  return { ...outbox, message, mode: ctx.config.postmark.serverToken ? ("postmark" as const) : ("outbox" as const) };
}
