import { Link, NavLink, useLocation } from "@remix-run/react";
import { ArrowRight, Menu, X } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import { CartButton } from "~/components/cart-button";
import { cn } from "~/lib/utils";

type Brand = { name: string; socialHandle: string; supportEmail: string };
type HeaderUser = { username: string; isAdmin: boolean } | null;

const NAV_LINKS = [
  { to: "/", label: "Home", end: true },
  { to: "/store", label: "Store", end: false },
  { to: "/about", label: "About", end: false },
  { to: "/support", label: "Support", end: false },
] as const;

function linksFor(user: HeaderUser) {
  return user?.isAdmin ? [...NAV_LINKS, { to: "/admin", label: "Admin", end: false } as const] : NAV_LINKS;
}

/**
 * The sticky navigation bar on every page. Desktop: links inline. Phones: a menu behind a
 * <details> toggle, which opens and closes without JavaScript; with JavaScript it also closes on
 * navigation, on a link tap and on Escape.
 */
export function SiteHeader({ brand, cartCount, user }: { brand: Brand; cartCount: number; user: HeaderUser }) {
  const links = linksFor(user);
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur-md supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-2 px-4 sm:px-6 md:grid md:grid-cols-[1fr_auto_1fr] lg:px-8">
        <Link
          to="/"
          prefetch="intent"
          aria-label={`${brand.name} home`}
          className="-ml-2 inline-flex h-11 items-center rounded-md px-2 font-display text-[2rem] leading-none tracking-[0.06em] uppercase"
        >
          {brand.name}
        </Link>

        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1 lg:gap-3">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  prefetch="intent"
                  className={({ isActive }) =>
                    cn(
                      "relative inline-flex h-11 items-center rounded-md px-3 text-[13px] font-semibold tracking-[0.14em] uppercase transition-colors",
                      "after:absolute after:inset-x-3 after:bottom-2 after:h-0.5 after:origin-left after:scale-x-0 after:bg-foreground after:transition-transform after:duration-200",
                      "hover:text-foreground hover:after:scale-x-100",
                      isActive ? "text-foreground after:scale-x-100" : "text-muted-foreground",
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1 md:ml-0 md:justify-self-end">
          <CartButton count={cartCount} />
          <MobileMenu brand={brand} links={links} />
        </div>
      </div>
    </header>
  );
}

function MobileMenu({ brand, links }: { brand: Brand; links: ReturnType<typeof linksFor> }) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  const close = useCallback((restoreFocus = false) => {
    const details = detailsRef.current;
    if (!details?.open) return;
    details.removeAttribute("open");
    if (restoreFocus) details.querySelector("summary")?.focus();
  }, []);

  // Close after any navigation (including back/forward), not just after a tap on a link.
  useEffect(() => {
    close();
  }, [location.key, close]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") close(true);
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [close]);

  return (
    <details ref={detailsRef} className="group md:hidden" data-testid="mobile-menu">
      <summary
        aria-label="Toggle menu"
        className="-mr-1.5 flex size-11 list-none items-center justify-center rounded-md text-foreground transition-colors hover:bg-accent [&::-webkit-details-marker]:hidden"
      >
        <Menu className="size-6 group-open:hidden" strokeWidth={1.75} aria-hidden="true" />
        <X className="hidden size-6 group-open:block" strokeWidth={1.75} aria-hidden="true" />
      </summary>

      <div
        className="absolute inset-x-0 top-full h-[calc(100dvh-4rem)] overflow-y-auto overscroll-contain border-t border-border bg-background"
        // A tap on any link closes the menu (the link itself then navigates).
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("a")) close();
        }}
      >
        <nav aria-label="Mobile" className="flex min-h-full flex-col px-4 pt-2 pb-8 sm:px-6">
          <ul className="divide-y divide-border border-b border-border">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  prefetch="intent"
                  className={({ isActive }) =>
                    cn(
                      "group/link flex min-h-16 items-center justify-between gap-4 py-3 font-display text-5xl leading-none tracking-[0.04em] uppercase transition-colors",
                      isActive ? "text-foreground" : "text-foreground/70 hover:text-foreground",
                    )
                  }
                >
                  {({ isActive }) => (
                    <>
                      <span className="flex items-center gap-3">
                        {link.label}
                        {isActive ? (
                          <span aria-hidden="true" className="mb-1 inline-block size-2 rounded-full bg-foreground" />
                        ) : null}
                      </span>
                      <ArrowRight
                        className="size-6 shrink-0 opacity-60 transition-transform group-hover/link:translate-x-1"
                        strokeWidth={1.5}
                        aria-hidden="true"
                      />
                    </>
                  )}
                </NavLink>
              </li>
            ))}
          </ul>

          <div className="mt-auto space-y-1 pt-10 text-sm text-muted-foreground">
            {brand.socialHandle ? <p>@{brand.socialHandle.replace(/^@/, "")}</p> : null}
            {brand.supportEmail ? (
              <p>
                <a
                  href={`mailto:${brand.supportEmail}`}
                  className="inline-flex min-h-11 items-center underline-offset-4 hover:text-foreground hover:underline"
                >
                  {brand.supportEmail}
                </a>
              </p>
            ) : null}
          </div>
        </nav>
      </div>
    </details>
  );
}
