import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

type Brand = { name: string; socialHandle: string; supportEmail: string };

const FOOTER_LINKS = [
  { to: "/store", label: "Store" },
  { to: "/about", label: "About" },
  { to: "/support", label: "Support" },
] as const;

const linkClass =
  "inline-flex min-h-11 items-center rounded-sm text-muted-foreground underline-offset-4 transition-colors hover:text-foreground hover:underline";

export function SiteFooter({ brand, year }: { brand: Brand; year: number }) {
  const handle = brand.socialHandle.replace(/^@/, "");
  const footer = useFocusFromFooterToTop();
  return (
    <footer ref={footer} className="border-t border-border">
      <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <div className="space-y-2">
          <p className="font-display text-2xl leading-none tracking-[0.06em] uppercase">{brand.name}</p>
          <p className="text-xs text-muted-foreground">
            © {year} {brand.name}. All rights reserved.
          </p>
        </div>

        <nav aria-label="Footer">
          <ul className="flex flex-wrap items-center gap-x-6 gap-y-0 text-sm">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} prefetch="intent" className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
            {brand.supportEmail ? (
              <li>
                <a href={`mailto:${brand.supportEmail}`} className={linkClass}>
                  Contact
                </a>
              </li>
            ) : null}
            {handle ? (
              <li className="text-muted-foreground">
                <span className="sr-only">Social: </span>@{handle}
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

/**
 * The footer stays on every page while the next page opens at its top: a footer link followed
 * from the keyboard kept the focus down there, out of sight, and the next Tab went on in the
 * footer. So the focus goes to the page's first stop, the skip link, as on a fresh page load.
 */
function useFocusFromFooterToTop() {
  const footer = useRef<HTMLElement>(null);
  const { key } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (footer.current?.contains(document.activeElement)) document.querySelector<HTMLElement>(".skip-link")?.focus();
  }, [key]);
  return footer;
}
