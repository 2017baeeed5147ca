import { Link, useLocation } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { Button } from "~/components/ui/button";

export const notFoundMeta = [{ title: "404 Page Not Found" }];

/** Any path the router does not know. Rendered by the splat route ($.tsx) and the root error boundary. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section
      aria-labelledby="not-found-title"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center px-4 py-16 sm:px-6 md:py-24"
    >
      <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Error 404</p>
      <h1
        id="not-found-title"
        className="mt-4 font-display text-6xl leading-[0.9] tracking-[0.02em] text-balance uppercase sm:text-7xl md:text-8xl"
      >
        404 Page Not Found
      </h1>
      <p className="mt-6 max-w-xl text-base text-muted-foreground">
        The page you are looking for does not exist, moved, or never dropped.
      </p>

      <div
        className="mt-8 overflow-hidden rounded-lg border border-border bg-card font-mono text-[13px] leading-relaxed"
        data-testid="not-found-hint"
      >
        <div className="flex items-center gap-1.5 border-b border-border px-4 py-2.5" aria-hidden="true">
          <span className="size-2.5 rounded-full bg-foreground/20" />
          <span className="size-2.5 rounded-full bg-foreground/20" />
          <span className="size-2.5 rounded-full bg-foreground/20" />
          <span className="ml-2 text-xs text-muted-foreground">router</span>
        </div>
        <div className="space-y-1 overflow-x-auto px-4 py-4">
          <p className="whitespace-nowrap">
            <span className="text-muted-foreground">$</span> GET <span className="break-all">{pathname}</span>
          </p>
          <p className="text-red-300">
            <span aria-hidden="true">✕ </span>404: no route matches this URL
          </p>
          <p className="text-muted-foreground">
            <span aria-hidden="true">// </span>Did you forget to add the page to the router?
          </p>
        </div>
      </div>

      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg">
          <Link to="/">
            <ArrowLeft aria-hidden="true" />
            Back to Home
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/store">Browse the Store</Link>
        </Button>
      </div>
    </section>
  );
}

/** Any other error that reaches the root error boundary. */
export function ErrorPage({ status }: { status: number }) {
  return (
    <section
      aria-labelledby="error-title"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center px-4 py-16 sm:px-6 md:py-24"
    >
      <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Error {status}</p>
      <h1
        id="error-title"
        className="mt-4 font-display text-6xl leading-[0.9] tracking-[0.02em] text-balance uppercase sm:text-7xl md:text-8xl"
      >
        Something went wrong
      </h1>
      <p className="mt-6 max-w-xl text-base text-muted-foreground">
        {status >= 500
          ? "We hit a snag on our side. Please try again in a moment."
          : "We couldn't complete that request."}{" "}
        <span className="whitespace-nowrap">Status code: {status}.</span>
      </p>
      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg">
          <Link to="/" reloadDocument>
            <ArrowLeft aria-hidden="true" />
            Back to Home
          </Link>
        </Button>
      </div>
    </section>
  );
}
