import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { TestModeBanner } from "~/components/test-mode-banner";
import { Toasts } from "~/components/toasts";
import stylesheet from "~/styles/app.css?url";
import { getAppContext } from "../server/boot";
import { authenticate } from "../server/http/auth";
import { readFlash } from "../server/http/flash";
import { cartSessionIdOf } from "../server/http/cart-session";
import { getCart } from "../server/services/cart";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.brand.name ?? "Store" },
  { name: "description", content: `${data?.brand.name ?? "The store"}: limited-edition drops.` },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const [auth, flash, cartCount] = await Promise.all([
    authenticate(ctx, request),
    readFlash(ctx, request),
    // The badge counts what the bag shows (hidden or unreleased products' lines are left out).
    cartSessionIdOf(ctx, request).then(async (sessionId) => (await getCart(ctx, sessionId)).count),
  ]);
  const headers = new Headers();
  if (auth.setCookie) headers.append("Set-Cookie", auth.setCookie);
  if (flash.clear) headers.append("Set-Cookie", flash.clear);
  return data(
    {
      user: auth.user ? { username: auth.user.username, isAdmin: auth.user.isAdmin } : null,
      cartCount,
      brand: ctx.config.brand,
      toast: flash.toast,
      year: ctx.clock.now().getUTCFullYear(),
      testMode: ctx.config.payments.mode === "test",
    },
    { headers },
  );
}

export type RootData = typeof loader;

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const brand = root?.brand ?? { name: "Store", socialHandle: "", supportEmail: "" };
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col bg-background text-foreground antialiased">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {root?.testMode ? <TestModeBanner /> : null}
        <SiteHeader brand={brand} cartCount={root?.cartCount ?? 0} user={root?.user ?? null} />
        <main id="main" className="flex flex-1 flex-col">
          {children}
        </main>
        <SiteFooter brand={brand} year={root?.year ?? new Date().getUTCFullYear()} />
        <Toasts flash={root?.toast ?? null} />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

// The last resort, when the layout's own loader fails; every page route has the same one.
export { ErrorBoundary } from "~/components/error-pages";
