import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CircleAlert, CircleCheck, MailX } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { getAppContext } from "../../server/boot";
import { Invalid } from "../../server/errors";
import { readForm } from "../../server/http/request-body";
import { INVALID_UNSUBSCRIBE_LINK, unsubscribeByToken, unsubscribeTarget } from "../../server/services/unsubscribe";
import { NO_STORE } from "../../server/http/cache-control";

type PageData =
  | { state: "confirm"; email: string; token: string }
  | { state: "done"; email: string }
  | { state: "invalid"; message: string; supportEmail: string };

// The token is in the URL: keep it out of caches and search engines (and, by the meta tag below,
// out of Referer headers; the document's Referrer-Policy header is set for every page).
const HEADERS = { "Cache-Control": NO_STORE, "X-Robots-Tag": "noindex" };
export const headers: HeadersFunction = () => HEADERS;

export const meta: MetaFunction = () => [
  { title: "Unsubscribe" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

async function answer(work: (ctx: Awaited<ReturnType<typeof getAppContext>>) => Promise<PageData>) {
  const ctx = await getAppContext();
  try {
    return data(await work(ctx), { headers: HEADERS });
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    return data<PageData>(
      { state: "invalid", message: INVALID_UNSUBSCRIBE_LINK, supportEmail: ctx.config.brand.supportEmail },
      { status: 400, headers: HEADERS },
    );
  }
}

/** GET /unsubscribe?token=…: who the link is for, and a button; nothing changes on a GET. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return answer(async (ctx): Promise<PageData> => {
    const target = await unsubscribeTarget(ctx, token);
    return target.unsubscribed ? { state: "done", email: target.email } : { state: "confirm", email: target.email, token };
  });
}

/**
 * POST /unsubscribe?token=…: the page's button, or a mail client's RFC 8058 one-click POST
 * (body `List-Unsubscribe=One-Click`, no cookies, no Origin), to the same signed URL.
 */
export async function action({ request }: ActionFunctionArgs) {
  // A mail client's one-click POST may send no form at all: the token is in the URL then.
  const form = await readForm(request).catch((error: unknown) => {
    if (error instanceof Response && error.status === 413) throw error;
    return new FormData();
  });
  const fromForm = form.get("token");
  const token = new URL(request.url).searchParams.get("token") ?? (typeof fromForm === "string" ? fromForm : "");
  return answer(async (ctx): Promise<PageData> => ({ state: "done", ...(await unsubscribeByToken(ctx, token)) }));
}

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

export { ErrorBoundary } from "~/components/error-pages";
