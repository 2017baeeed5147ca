import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatLaunchTimeOrNone } from "#server/contracts/store-zone";
import { Button } from "#app/components/ui/button";
import { DRAW_PAGE_HEADERS, drawClaimAction, drawClaimLoader } from "#server/http/doors/draw-door";
import { pageTitle } from "#app/lib/page-title";

export const loader = (args: LoaderFunctionArgs) => drawClaimLoader(args);
export const action = (args: ActionFunctionArgs) => drawClaimAction(args);
export const headers: HeadersFunction = () => DRAW_PAGE_HEADERS;

export const meta: MetaFunction = ({ matches }) => [pageTitle("You were picked", matches), { name: "robots", content: "noindex" }];

/** A winner's link: one button puts their unit in this browser's bag, then the usual checkout. */
export default function ClaimDrawUnit() {
  const loaded = useLoaderData<typeof loader>();
  const page = useActionData<typeof action>() ?? loaded;
  const submitting = useNavigation().state === "submitting";
  return (
    <section className="mx-auto w-full max-w-xl flex-1 px-4 py-12 sm:px-6">
      <div className="rounded-xl border border-border bg-card p-6 sm:p-10">
        <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Draw</p>
        {page.kind === "ready" ? (
          <>
            <h1 className="mt-3 font-display text-4xl leading-[0.95] sm:text-5xl">You were picked</h1>
            <p className="mt-4 text-muted-foreground">
              One {page.productName}
              {page.size ? ` in size ${page.size}` : ""} is held for you until {formatLaunchTimeOrNone(page.claimExpiresAt)}. This link
              works in one browser: buy on this device.
            </p>
            <Form method="post" className="mt-6">
              <Button type="submit" size="lg" disabled={submitting} className="w-full sm:w-auto">
                {submitting ? "Taking you to checkout..." : "Buy it now"}
              </Button>
            </Form>
          </>
        ) : (
          <>
            <h1 className="mt-3 font-display text-4xl leading-[0.95] sm:text-5xl">Link not available</h1>
            <p className="mt-4 text-muted-foreground" data-testid="draw-claim-message">
              {page.message}
            </p>
            <p className="mt-6">
              <Link className="underline" to="/store">
                Back to the store
              </Link>
            </p>
          </>
        )}
      </div>
    </section>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
