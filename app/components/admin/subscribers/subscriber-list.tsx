import { useMutation, type UseQueryResult } from "@tanstack/react-query";
import { Link, useLocation } from "@remix-run/react";
import { ChevronLeft, ChevronRight, CircleAlert, Download, RefreshCw, Users } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { SUBSCRIBER_TEXTS as T, type SubscriberList } from "#server/contracts/admin-subscribers";
import { count, download, formatEastern } from "./format";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

const th =
  "sticky top-0 z-10 bg-card px-3 py-3 sm:px-4 text-left text-xs font-semibold tracking-[0.12em] whitespace-nowrap text-muted-foreground uppercase shadow-[inset_0_-1px_0_var(--color-border)]";

/**
 * docs/spec.md §2 "Subscriber List": the count, Refresh, Export, the table and the "Last updated" line.
 * The count is every active subscriber; the table is one page of them (`page`, from the URL), with
 * a pager of plain links under it, so it pages without JavaScript as well.
 */
export function SubscriberListPanel({ list, page }: { list: UseQueryResult<SubscriberList, { message: string }>; page: number }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [refreshing, setRefreshing] = useState(false);
  const exporter = useMutation(
    trpc.admin.subscribers.export.mutationOptions({
      onSuccess: (result) => {
        download(result.downloadUrl, result.filename);
        notify.success(T.exported, `${count(result.count, "subscriber")} saved to ${result.filename}.`);
      },
      onError: (error) => notify.error(T.exportFailed, error.message || "The export could not be created. Please try again."),
    }),
  );

  async function refresh() {
    setRefreshing(true);
    const result = await list.refetch();
    setRefreshing(false);
    if (result.isError) notify.error(T.refreshFailed, result.error.message || "The list could not be loaded. Please try again.");
    else notify.success(T.refreshed, `${count(result.data?.count ?? 0, "subscriber")} on the list.`);
  }

  const data = list.data;
  const total = data?.count ?? 0;
  const pages = data?.pages ?? 1;
  // While the next page loads the previous one stays up (placeholder data), and its numbering with it.
  const firstRow = data ? (data.page - 1) * data.pageSize : 0;
  // A placeholder has no time of its own: "Last updated" keeps the last real one.
  const updatedAt = useRef(list.dataUpdatedAt);
  if (list.dataUpdatedAt) updatedAt.current = list.dataUpdatedAt;
  // A new page starts at its top row.
  const scroller = useRef<HTMLDivElement>(null);
  const shownPage = data?.page;
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [shownPage]);
  return (
    <div className="overflow-hidden rounded-lg border border-border bg-card">
      <div className="flex flex-wrap items-end justify-between gap-4 border-b border-border p-4 sm:p-5">
        <div>
          <p className="text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase">Active subscribers</p>
          <p className="mt-1 font-display text-5xl leading-none tabular-nums" data-testid="subscriber-count" aria-live="polite">
            {total.toLocaleString("en-US")}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => void refresh()} disabled={!hydrated || refreshing} aria-busy={refreshing}>
            <RefreshCw aria-hidden className={cn(list.isFetching && "motion-safe:animate-spin")} />
            Refresh
          </Button>
          <Button
            size="sm"
            onClick={() => exporter.mutate()}
            disabled={!hydrated || exporter.isPending || total === 0}
            aria-busy={exporter.isPending}
          >
            <Download aria-hidden />
            {exporter.isPending ? "Exporting..." : "Export"}
          </Button>
        </div>
      </div>

      {list.isError ? (
        <LoadError message={list.error.message} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : !data ? (
        <p className="px-6 py-16 text-center text-sm text-muted-foreground" aria-busy>
          Loading subscribers…
        </p>
      ) : total === 0 ? (
        <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
          <Users aria-hidden className="size-10 text-muted-foreground" />
          <p className="max-w-sm text-sm text-muted-foreground">{T.empty}</p>
        </div>
      ) : data.subscribers.length === 0 ? (
        <p className="px-6 py-16 text-center text-sm text-muted-foreground">
          There is no page {page.toLocaleString("en-US")}: the list has {count(pages, "page")}.
        </p>
      ) : (
        <div
          ref={scroller}
          className={cn("max-h-[600px] overflow-auto transition-opacity", list.isPlaceholderData && "opacity-60")}
          data-testid="subscribers-scroll"
          aria-busy={list.isPlaceholderData}
        >
          <table className="w-full border-separate border-spacing-0 text-sm">
            <caption className="sr-only">Subscribers, newest first. Times in Eastern Time.</caption>
            <thead>
              <tr>
                <th scope="col" className={cn(th, "w-12 sm:w-16")}>
                  #
                </th>
                <th scope="col" className={th}>
                  Email
                </th>
                <th scope="col" className={cn(th, "text-right sm:text-left")}>
                  Subscribed On
                </th>
              </tr>
            </thead>
            <tbody className="[&>tr:not(:last-child)>td]:border-b [&>tr>td]:border-border">
              {data.subscribers.map((s, i) => (
                <tr key={s.id} data-testid="subscriber-row" className="transition-colors hover:bg-foreground/[0.03]">
                  <td className="px-3 py-3 text-muted-foreground tabular-nums sm:px-4">{(firstRow + i + 1).toLocaleString("en-US")}</td>
                  <td className="px-3 py-3 font-medium [overflow-wrap:anywhere] sm:px-4">
                    <EmailText email={s.email} />
                  </td>
                  <td className="px-3 py-3 text-right whitespace-nowrap sm:px-4 sm:text-left">
                    <span>{formatEastern(s.subscribedAt, "MMM d, yyyy")}</span>
                    <span className="block text-xs text-muted-foreground sm:ml-2 sm:inline">
                      {formatEastern(s.subscribedAt, "h:mm a")} ET
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {!list.isError && (pages > 1 || page > 1) ? <Pager page={page} pages={pages} /> : null}

      <p className="flex flex-wrap items-center justify-between gap-2 border-t border-border px-4 py-3 text-xs text-muted-foreground sm:px-5">
        <span>
          Last updated{" "}
          <time dateTime={new Date(updatedAt.current).toISOString()}>{formatEastern(updatedAt.current, "MMM d, h:mm:ss a")} ET</time>
        </span>
        <span>Refreshes every 10 seconds</span>
      </p>
    </div>
  );
}

/**
 * Previous, "Page X of Y", Next: links to `?page=` (other query parameters kept), disabled buttons
 * at the ends. Past the end, Previous leads back to the last page.
 */
function Pager({ page, pages }: { page: number; pages: number }) {
  const location = useLocation();
  const href = (target: number) => {
    const next = new URLSearchParams(location.search);
    if (target <= 1) next.delete("page");
    else next.set("page", String(target));
    const search = next.toString();
    return search ? `${location.pathname}?${search}` : location.pathname;
  };
  return (
    <nav aria-label="Subscriber list pages" className="flex items-center justify-between gap-3 border-t border-border px-4 py-3 sm:px-5">
      <PagerLink to={page > 1 ? href(Math.min(page - 1, pages)) : null} rel="prev">
        <ChevronLeft aria-hidden />
        Previous
      </PagerLink>
      <p className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
        Page {page.toLocaleString("en-US")} of {pages.toLocaleString("en-US")}
      </p>
      <PagerLink to={page < pages ? href(page + 1) : null} rel="next">
        Next
        <ChevronRight aria-hidden />
      </PagerLink>
    </nav>
  );
}

/** A 36px button-styled link, or a disabled button where there is nowhere to go. */
function PagerLink({ to, rel, children }: { to: string | null; rel: "prev" | "next"; children: ReactNode }) {
  if (to === null) {
    return (
      <Button variant="outline" size="sm" disabled>
        {children}
      </Button>
    );
  }
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={to} rel={rel} preventScrollReset>
        {children}
      </Link>
    </Button>
  );
}

function LoadError({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div
      role="alert"
      className="m-4 flex flex-col items-start gap-4 rounded-lg border border-destructive/50 bg-destructive/10 p-5 sm:m-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex gap-3">
        <CircleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-300" />
        <div>
          <p className="font-semibold">{T.loadError}</p>
          <p className="mt-1 text-sm text-muted-foreground">{message || "The subscriber list could not be loaded."}</p>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden className={cn(retrying && "motion-safe:animate-spin")} />
        {T.tryAgain}
      </Button>
    </div>
  );
}

/** An address wraps after its "@" first, rather than somewhere inside the domain. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
