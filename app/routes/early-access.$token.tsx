import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CircleAlert, Clock, KeyRound } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "#app/components/ui/button";
import { EARLY_ACCESS_PAGE_HEADERS, earlyAccessAction, earlyAccessLoader } from "#server/http/doors/early-access-door";
import { pageTitle } from "#app/lib/page-title";

export const loader = (args: LoaderFunctionArgs) => earlyAccessLoader(args);
export const action = (args: ActionFunctionArgs) => earlyAccessAction(args);
export const headers: HeadersFunction = () => EARLY_ACCESS_PAGE_HEADERS;

export const meta: MetaFunction = ({ matches }) => [
  pageTitle("Early access", matches),
  { name: "robots", content: "noindex" },
  // No "no-referrer" here: Chromium would then send the button's POST with `Origin: null`, which the
  // cross-site check refuses. The store's Referrer-Policy already gives other sites the origin only.
];

/** An early-access link (decision 0020): enter the drop early, or why not. */
export default function EarlyAccess() {
  const loaded = useLoaderData<typeof loader>();
  const page = useActionData<typeof action>() ?? loaded;
  const submitting = useNavigation().state === "submitting";

  if (page.kind === "ready") {
    return (
      <Panel icon={<KeyRound aria-hidden className="size-7 text-foreground" />} title="You're in early">
        <p>
          This link lets this browser see and buy the drop before everyone else. It works once, in one browser: enter now, on the device you
          will buy with.
        </p>
        <Form method="post" className="pt-2">
          <Button type="submit" size="lg" disabled={submitting} className="w-full sm:w-auto">
            {submitting ? "Entering..." : "Enter the drop"}
          </Button>
        </Form>
      </Panel>
    );
  }
  return (
    <Panel
      icon={
        page.kind === "tooEarly" ? (
          <Clock aria-hidden className="size-7 text-foreground" />
        ) : (
          <CircleAlert aria-hidden className="size-7 text-destructive" />
        )
      }
      title={page.kind === "tooEarly" ? "Not yet" : "Link not available"}
    >
      <p data-testid="early-access-message">{page.message}</p>
      <div className="pt-2">
        <Button asChild size="lg" variant="outline">
          <Link to="/">Back to Home</Link>
        </Button>
      </div>
    </Panel>
  );
}

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="early-access-title"
      className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-4 py-16 sm:px-6"
    >
      <div className="rounded-xl border border-border bg-card p-6 shadow-2xl sm:p-10">
        <div className="mb-6 flex size-14 items-center justify-center rounded-full border border-border bg-background">{icon}</div>
        <p className="text-[11px] font-semibold tracking-[0.3em] text-muted-foreground uppercase">Early access</p>
        <h1 id="early-access-title" className="mt-3 font-display text-4xl leading-[0.95] tracking-[0.02em] text-balance sm:text-5xl">
          {title}
        </h1>
        <div className="mt-5 space-y-4 text-base leading-relaxed text-muted-foreground">{children}</div>
      </div>
    </section>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
