import { Link, NavLink, useLocation } from "@remix-run/react";
import { ArrowRight, Menu, X } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import { CartButton } from "./cart-button";
import { VisitorHole } from "./visitor-hole";
import { cn } from "#app/lib/utils";

type Brand = { name: string; socialHandle: string; supportEmail: string };
type HeaderUser = { username: string; isAdmin: boolean } | null;

const NAV_LINKS = [
  { to: "/", label: "Home", end: true },
  { to: "/store", label: "Store", end: false },
  { to: "/about", label: "About", end: false },
  { to: "/support", label: "Support", end: false },
] as const;

const ADMIN_LINK = { to: "/admin", label: "Admin", end: false } as const;
type NavItem = (typeof NAV_LINKS)[number] | typeof ADMIN_LINK;

/** The admin's own link says whose session it is. */
export const adminLinkTitle = (user: HeaderUser) => (user ? `Signed in as ${user.username}` : undefined);

export const desktopLinkClass = (isActive: boolean) =>
  cn(
    "relative inline-flex h-11 items-center rounded-md px-3 text-[13px] font-semibold tracking-[0.14em] uppercase transition-colors",
    "after:absolute after:inset-x-3 after:bottom-2 after:h-0.5 after:origin-left after:scale-x-0 after:bg-foreground after:transition-transform after:duration-200",
    "hover:text-foreground hover:after:scale-x-100",
    isActive ? "text-foreground after:scale-x-100" : "text-muted-foreground",
  );

export const menuItemClass = "border-b border-border";

export const menuLinkClass = (isActive: boolean) =>
  cn(
    "group/link flex min-h-16 items-center justify-between gap-4 py-3 font-display text-5xl leading-none tracking-[0.04em] uppercase transition-colors",
    isActive ? "text-foreground" : "text-foreground/70 hover:text-foreground",
  );

export function MenuLinkBody({ label, isActive }: { label: string; isActive: boolean }) {
  return (
    <>
      <span className="flex items-center gap-3">
        {label}
        {isActive ? <span aria-hidden="true" className="mb-1 inline-block size-2 rounded-full bg-foreground" /> : null}
      </span>
      <ArrowRight
        className="size-6 shrink-0 opacity-60 transition-transform group-hover/link:translate-x-1"
        strokeWidth={1.5}
        aria-hidden="true"
      />
    </>
  );
}

function DesktopItem({ link, user }: { link: NavItem; user?: HeaderUser }) {
  return (
    <li>
      <NavLink
        to={link.to}
        end={link.end}
        prefetch="intent"
        title={user ? adminLinkTitle(user) : undefined}
        className={({ isActive }) => desktopLinkClass(isActive)}
      >
        {link.label}
      </NavLink>
    </li>
  );
}

function MenuItem({ link, user }: { link: NavItem; user?: HeaderUser }) {
  return (
    <li className={menuItemClass}>
      <NavLink
        to={link.to}
        end={link.end}
        prefetch="intent"
        title={user ? adminLinkTitle(user) : undefined}
        className={({ isActive }) => menuLinkClass(isActive)}
      >
        {({ isActive }) => <MenuLinkBody label={link.label} isActive={isActive} />}
      </NavLink>
    </li>
  );
}

/**
 * The sticky navigation bar on every page. Desktop: links inline. Phones: a menu behind a
 * <details> toggle, which opens and closes without JavaScript; with JavaScript it also closes on
 * navigation, on a link tap and on Escape. The bag and the admin link are the visitor's own:
 * holes in a cached page (decision 0014).
 */
export function SiteHeader({ brand }: { brand: Brand }) {
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
            {NAV_LINKS.map((link) => (
              <DesktopItem key={link.to} link={link} />
            ))}
            <VisitorHole name="nav-admin">
              {({ user }) => (user?.isAdmin ? <DesktopItem link={ADMIN_LINK} user={user} /> : null)}
            </VisitorHole>
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1 md:ml-0 md:justify-self-end">
          <VisitorHole name="bag">{({ cartCount }) => <CartButton count={cartCount} />}</VisitorHole>
          <MobileMenu brand={brand} />
        </div>
      </div>
    </header>
  );
}

function MobileMenu({ brand }: { brand: Brand }) {
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
        // A tap on any link closes the menu (the link itself then navigates). Chosen from the
        // keyboard (a click with no pointer, detail 0), the focus goes back to the menu's button:
        // left on the link, it was hidden in the closed menu and the next Tab started from nowhere.
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("a")) close(event.detail === 0);
        }}
      >
        <nav aria-label="Mobile" className="flex min-h-full flex-col px-4 pt-2 pb-8 sm:px-6">
          {/* A border under each item, not divide-y: the admin item lives in a hole and must not
              change which item is last. */}
          <ul>
            {NAV_LINKS.map((link) => (
              <MenuItem key={link.to} link={link} />
            ))}
            <VisitorHole name="menu-admin">{({ user }) => (user?.isAdmin ? <MenuItem link={ADMIN_LINK} user={user} /> : null)}</VisitorHole>
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
