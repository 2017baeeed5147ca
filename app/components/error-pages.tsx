import { isRouteErrorResponse, Link, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { Button } from "./ui/button";
import { pageTitle } from "#app/lib/page-title";
import { cn } from "#app/lib/utils";
import { STORE_BUSY_MESSAGE } from "#server/contracts/store-busy";
import { REQUEST_BODY_MESSAGES } from "#server/contracts/request-body";

export const notFoundMeta = (matches: Parameters<typeof pageTitle>[1]) => [pageTitle("404 Page Not Found", matches)];

/** Any path the router does not know: the splat route ($.tsx). */
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
      <p className="mt-6 max-w-xl text-base text-muted-foreground">The page you are looking for does not exist, moved, or never dropped.</p>

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

interface RouteErrorCopy {
  /** The sentence under "Page not found" when the route threw a 404 ("Product not found."). */
  notFoundMessage?: string;
  /** The sentence when the page failed on our side. */
  failedMessage?: string;
  /** Where to go instead; by default home, or the dashboard from an admin page. */
  back?: { to: string; label: string };
}

/**
 * What a page shows when its loader (or its rendering) fails: the store's look, a heading, a
 * short message and a way back. Inside the admin frame, whose heading is the page's h1, it is a
 * section of the tab instead of a page of its own.
 */
export function RouteErrorPage({ notFoundMessage, failedMessage, back }: RouteErrorCopy) {
  const error = useRouteError();
  const { pathname, search } = useLocation();
  const inAdminFrame = useRouteLoaderData("routes/admin") !== undefined;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  const admin = pathname === "/admin" || pathname.startsWith("/admin/");
  // 503: the database was out of reach for a moment (decision 0041); the same page again is the remedy.
  const busy = status === 503;
  const way = busy
    ? { to: `${pathname}${search}`, label: "Try Again" }
    : (back ?? (admin ? { to: "/admin", label: "Back to Admin" } : { to: "/", label: "Back to Home" }));
  const Heading = inAdminFrame ? "h2" : "h1";
  const message = notFound
    ? (notFoundMessage ?? "The page you are looking for does not exist, moved, or never dropped.")
    : busy
      ? STORE_BUSY_MESSAGE
      : status >= 500
        ? (failedMessage ?? "We hit a snag on our side. Please try again in a moment.")
        : status === 413
          ? REQUEST_BODY_MESSAGES.tooLarge
          : "We couldn't complete that request.";
  return (
    <section
      aria-labelledby="error-title"
      className={cn("mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center px-4 sm:px-6", inAdminFrame ? "py-10" : "py-16 md:py-24")}
    >
      <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Error {status}</p>
      <Heading
        id="error-title"
        className={cn(
          "mt-4 font-display tracking-[0.02em] text-balance uppercase",
          inAdminFrame ? "text-5xl" : "text-6xl sm:text-7xl md:text-8xl",
        )}
      >
        {notFound ? "Page not found" : busy ? "Busy for a moment" : "Something went wrong"}
      </Heading>
      <p role="alert" className="mt-6 max-w-xl text-base text-muted-foreground">
        {message} {notFound ? null : <span className="whitespace-nowrap">Status code: {status}.</span>}
      </p>
      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg">
          {/* A full load: whatever broke this page should not linger in the next one. */}
          <Link to={way.to} reloadDocument>
            <ArrowLeft aria-hidden="true" />
            {way.label}
          </Link>
        </Button>
      </div>
    </section>
  );
}

/** Every page route re-exports this as its own ErrorBoundary. */
export function ErrorBoundary() {
  return <RouteErrorPage />;
}
