import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CircleAlert, CircleCheck, MailX } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "#app/components/ui/button";
import { UNSUBSCRIBE_PAGE_HEADERS, unsubscribeAction, unsubscribeLoader } from "#server/http/doors/unsubscribe-door";
import { pageTitle } from "#app/lib/page-title";

// The token is in the URL: keep it out of caches and search engines (and, by the meta tag below,
// out of Referer headers; the document's Referrer-Policy header is set for every page).
export const headers: HeadersFunction = () => UNSUBSCRIBE_PAGE_HEADERS;

export const meta: MetaFunction = ({ matches }) => [
  pageTitle("Unsubscribe", matches),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

/** GET shows who the link is for; POST (the button, or a mail client's RFC 8058 one-click) unsubscribes. */
export const loader = (args: LoaderFunctionArgs) => unsubscribeLoader(args);
export const action = (args: ActionFunctionArgs) => unsubscribeAction(args);

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const page = posted ?? loaded;
  const submitting = useNavigation().state === "submitting";

  if (page.state === "invalid") {
    return (
      <Panel icon={<CircleAlert aria-hidden className="size-7 text-destructive" />} title={page.message}>
        <p>
          The link may have been cut short when it was copied. Open it again from the e-mail, or write to{" "}
          <a className="font-medium text-foreground underline underline-offset-4" href={`mailto:${page.supportEmail}`}>
            {page.supportEmail}
          </a>{" "}
          and we will take you off the list.
        </p>
        <HomeButton />
      </Panel>
    );
  }
  if (page.state === "done") {
    return (
      <Panel icon={<CircleCheck aria-hidden className="size-7 text-success" />} title="You're unsubscribed" live>
        <p>
          <span className="font-medium break-all text-foreground">{page.email}</span> won't get e-mail about our drops any more. Order
          receipts and replies to your messages still reach you.
        </p>
        <p>Changed your mind? You can sign up again on the home page at any time.</p>
        <HomeButton />
      </Panel>
    );
  }
  return (
    <Panel icon={<MailX aria-hidden className="size-7 text-foreground" />} title={<ConfirmTitle email={page.email} />}>
      <p>You'll stop getting early-access e-mail about our drops. Order receipts and replies to your messages still reach you.</p>
      <Form method="post" className="flex flex-col gap-3 pt-2 sm:flex-row">
        <input type="hidden" name="token" value={page.token} />
        <Button type="submit" size="lg" disabled={submitting}>
          {submitting ? "Unsubscribing..." : "Unsubscribe"}
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/">Keep me subscribed</Link>
        </Button>
      </Form>
    </Panel>
  );
}

/** The display face has capitals only: the address keeps its own letters, in the text face. */
function ConfirmTitle({ email }: { email: string }) {
  return (
    <>
      Unsubscribe{" "}
      <span className="mt-2 block font-sans text-2xl font-semibold tracking-normal break-all normal-case sm:text-3xl">{email}?</span>
    </>
  );
}

function Panel({ icon, title, children, live }: { icon: ReactNode; title: ReactNode; children: ReactNode; live?: boolean }) {
  return (
    <section aria-labelledby="unsubscribe-title" className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-4 py-16 sm:px-6">
      <div className="rounded-xl border border-border bg-card p-6 shadow-2xl sm:p-10" role={live ? "status" : undefined}>
        <div className="mb-6 flex size-14 items-center justify-center rounded-full border border-border bg-background">{icon}</div>
        <p className="text-[11px] font-semibold tracking-[0.3em] text-muted-foreground uppercase">Email preferences</p>
        <h1 id="unsubscribe-title" className="mt-3 font-display text-4xl leading-[0.95] tracking-[0.02em] text-balance sm:text-5xl">
          {title}
        </h1>
        <div className="mt-5 space-y-4 text-base leading-relaxed text-muted-foreground">{children}</div>
      </div>
    </section>
  );
}

function HomeButton() {
  return (
    <div className="pt-2">
      <Button asChild size="lg" variant="outline">
        <Link to="/">Back to Home</Link>
      </Button>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
