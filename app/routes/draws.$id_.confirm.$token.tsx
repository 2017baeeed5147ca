import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "#app/components/ui/button";
import { DRAW_PAGE_HEADERS, drawConfirmAction, drawConfirmLoader } from "#server/http/doors/draw-door";
import { pageTitle } from "#app/lib/page-title";

export const loader = (args: LoaderFunctionArgs) => drawConfirmLoader(args);
export const action = (args: ActionFunctionArgs) => drawConfirmAction(args);
export const headers: HeadersFunction = () => DRAW_PAGE_HEADERS;

export const meta: MetaFunction = ({ matches }) => [pageTitle("Confirm your entry", matches), { name: "robots", content: "noindex" }];

/** The link in the confirmation e-mail: the entry, a button to confirm it, then the receipt. */
export default function ConfirmDrawEntry() {
  const loaded = useLoaderData<typeof loader>();
  const { entry, error } = useActionData<typeof action>() ?? loaded;
  const submitting = useNavigation().state === "submitting";
  return (
    <section className="mx-auto w-full max-w-xl flex-1 px-4 py-12 sm:px-6">
      <div className="rounded-xl border border-border bg-card p-6 sm:p-10">
        <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Draw entry</p>
        <h1 className="mt-3 font-display text-4xl leading-[0.95] sm:text-5xl">
          {entry.confirmed ? "You're in the draw" : "Confirm your entry"}
        </h1>
        <dl className="mt-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Product</dt>
          <dd>{entry.productName}</dd>
          <dt className="text-muted-foreground">E-mail</dt>
          <dd className="break-all">{entry.email}</dd>
          {entry.size ? (
            <>
              <dt className="text-muted-foreground">Size</dt>
              <dd>{entry.size}</dd>
            </>
          ) : null}
        </dl>
        {error ? (
          <p role="alert" className="mt-4 text-sm text-destructive" data-testid="draw-confirm-error">
            {error}
          </p>
        ) : null}
        {entry.receipt ? (
          <div className="mt-6 space-y-2 rounded-md border border-border bg-background p-4 text-sm" data-testid="draw-receipt">
            <p className="font-semibold">Your receipt: entry number {entry.receipt.n}</p>
            <p className="text-muted-foreground">
              Keep it. After the draw, the public proof lists this entry by its e-mail hash; docs/draws.md explains how to check it.
            </p>
            <p>
              E-mail hash: <code className="break-all">{entry.receipt.emailHash}</code>
            </p>
            <p>
              Chain at your entry: <code className="break-all">{entry.receipt.chain}</code>
            </p>
            <p>
              Commitment: <code className="break-all">{entry.receipt.commitment}</code>
            </p>
          </div>
        ) : entry.state === "open" ? (
          <Form method="post" className="mt-6">
            <Button type="submit" size="lg" disabled={submitting} className="w-full sm:w-auto">
              {submitting ? "Confirming..." : "Confirm my entry"}
            </Button>
          </Form>
        ) : (
          <p className="mt-6 text-sm text-muted-foreground">Entries for this draw are not open.</p>
        )}
        <p className="mt-6">
          <Link className="text-sm underline" to={`/draws/${entry.drawId}`}>
            The draw
          </Link>
        </p>
      </div>
    </section>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
