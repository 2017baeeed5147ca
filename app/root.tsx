import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { TestModeBanner } from "./components/test-mode-banner";
import { Toasts } from "./components/toasts";
import bebasNeue from "./fonts/bebas-neue-latin-400.woff2?url";
import inter from "./fonts/inter-latin-400-700.woff2?url";
import { useNonce } from "./lib/nonce";
import { afterProcessOrder } from "./lib/revalidate";
import stylesheet from "./styles/app.css?url";
import { useEffect } from "react";
import { rootLoader } from "#server/http/doors/root-door";

export const links: LinksFunction = () => [
  // Both faces are above the fold on every page (decision 0029): fetched with the stylesheet, not after it.
  { rel: "preload", href: bebasNeue, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: inter, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.brand.name ?? "Store" },
  { name: "description", content: `${data?.brand.name ?? "The store"}: limited-edition drops.` },
];

export const loader = (args: LoaderFunctionArgs) => rootLoader(args);

export type RootData = typeof loader;

// The badge and the bag it opens stay as they are after a held order, as the checkout's own data does.
export const shouldRevalidate: ShouldRevalidateFunction = (args) => afterProcessOrder(args) ?? args.defaultShouldRevalidate;

/*
 * The page's JavaScript starts after the first paint (decision 0031): the server sends Remix's
 * modulepreload links and module script inert (app/preload-nonce.server.ts); this turns them on
 * once the page has loaded and its first contentful paint is on screen (two frames later, so an
 * image that finished with the load has painted too); a form page's (`module-at-paint`) at its
 * first contentful paint; either at once on the visitor's first key press or touch. `load` alone can come before the first paint. A hidden tab paints nothing: it
 * starts at load; a browser without paint timing, at load; and never later than 3 s after load.
 * The module script is re-armed in place (a new text child makes the browser prepare it again,
 * with the nonce it was parsed with), so the document React hydrates keeps the same elements.
 */
const hydrateAfterPaint = `(() => {
  const early = ["pointerdown", "keydown", "touchstart"];
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of early) removeEventListener(type, start, true);
    for (const link of document.querySelectorAll('link[rel="modulepreload-later"]')) link.rel = "modulepreload";
    for (const script of document.querySelectorAll('script[type="module-later"], script[type="module-at-paint"]')) {
      script.type = "module";
      script.text = script.text;
    }
  };
  for (const type of early) addEventListener(type, start, { capture: true, passive: true });
  const onFirstPaint = (then) => {
    if (document.visibilityState === "hidden" || !PerformanceObserver.supportedEntryTypes?.includes("paint")) return then();
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      then();
    }).observe({ type: "paint", buffered: true });
  };
  const whenParsed = (then) => document.readyState === "loading" ? addEventListener("DOMContentLoaded", then) : then();
  onFirstPaint(() => whenParsed(() => {
    if (document.querySelector('script[type="module-at-paint"]')) start();
  }));
  addEventListener("load", () => {
    setTimeout(start, 3000);
    onFirstPaint(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start))));
  });
})()`;

export function Layout({ children }: { children: React.ReactNode }) {
  // Says the page is live (its JavaScript may start after the first paint, decision 0031): the
  // end-to-end tests "with JavaScript" wait for it before they act, as their no-JS twins do not.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  const root = useRouteLoaderData<typeof loader>("root");
  const brand = root?.brand ?? { name: "Store", socialHandle: "", supportEmail: "" };
  // Every script carries this answer's CSP nonce (decision 0028).
  const nonce = useNonce();
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {/* Zod tries `new Function` once to pick its fast path; a strict CSP reports that as a
            violation even though zod catches it. Jitless, zod never tries (decision 0028). */}
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: "globalThis.__zod_globalConfig={jitless:true}" }}
          suppressHydrationWarning
        />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: hydrateAfterPaint }} suppressHydrationWarning />
      </head>
      <body className="flex min-h-dvh flex-col bg-background text-foreground antialiased">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {root?.testMode ? <TestModeBanner processor={root.testMode} /> : null}
        <SiteHeader brand={brand} />
        <main id="main" className="flex flex-1 flex-col">
          {children}
        </main>
        <SiteFooter brand={brand} year={root?.year ?? new Date().getUTCFullYear()} />
        <Toasts />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

// The last resort, when the layout's own loader fails; every page route has the same one.
export { ErrorBoundary } from "./components/error-pages";
