import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ArrowLeft, Search } from "lucide-react";
import { AdminSection } from "#app/components/admin/admin-section";
import { MessageDetail } from "#app/components/admin/subscribers/outbox-message";
import { MessageList } from "#app/components/admin/subscribers/outbox-list";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { outboxLoader } from "#server/http/doors/outbox-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Outbox", matches)];

/**
 * /admin/outbox: every e-mail the store recorded, newest first (?q= recipient or subject,
 * ?stream=, ?page=), and one opened (?id=). Plain links and a GET form: it works without
 * JavaScript too.
 */
export const loader = (args: LoaderFunctionArgs) => outboxLoader(args);

export default function AdminOutbox() {
  const { messages, total, page, pages, message, mode } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const q = params.get("q") ?? "";
  const stream = params.get("stream") ?? "";

  return (
    <AdminSection heading="Outbox">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <p className="max-w-2xl text-sm text-muted-foreground">
          {mode === "outbox"
            ? "Postmark is not configured, so nothing leaves this machine: every e-mail the store sends — order confirmations, support messages, campaigns — is kept here to read."
            : "Every e-mail the store handed to Postmark, with its delivery status: order confirmations, support messages and campaigns."}
        </p>
        <Button asChild variant="outline" size="sm">
          <Link to="/admin/subscribers">
            <ArrowLeft aria-hidden />
            Subscribers
          </Link>
        </Button>
      </div>

      <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label htmlFor="outbox-q" className="sr-only">
          Search by recipient or subject
        </label>
        <div className="relative flex-1">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input id="outbox-q" name="q" type="search" defaultValue={q} placeholder="Recipient or subject" className="pl-9" />
        </div>
        <label htmlFor="outbox-stream" className="sr-only">
          Stream
        </label>
        <select
          id="outbox-stream"
          name="stream"
          defaultValue={stream}
          className="h-11 rounded-md border border-input bg-background/60 px-3 text-sm text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
        >
          <option value="">All streams</option>
          <option value="outbound">Transactional</option>
          <option value="broadcast">Broadcast</option>
        </select>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </Form>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div className={message ? "order-2 min-w-0 lg:order-1" : "min-w-0"}>
          <MessageList messages={messages} total={total} page={page} pages={pages} selectedId={message?.id ?? null} />
        </div>
        <div className={message ? "order-1 min-w-0 lg:sticky lg:top-6 lg:order-2 lg:self-start" : "hidden min-w-0 lg:block"}>
          {message ? (
            <MessageDetail message={message} />
          ) : (
            <div className="flex h-full min-h-60 items-center justify-center rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
              Choose a message to read it.
            </div>
          )}
        </div>
      </div>
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
