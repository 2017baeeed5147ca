import { Link, useLocation } from "@remix-run/react";
import { ShoppingBag } from "lucide-react";
import { forwardRef, lazy, Suspense, useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useLiveCart } from "./cart/use-live-cart";
import { cn } from "#app/lib/utils";

export function cartLabel(count: number): string {
  return `Shopping cart, ${count} ${count === 1 ? "item" : "items"}`;
}

export const triggerClass = cn(
  "relative inline-flex size-11 items-center justify-center rounded-md text-foreground transition-colors",
  "hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
  "data-[state=open]:bg-accent",
);

export function BagIcon({ count }: { count: number }) {
  return (
    <>
      <ShoppingBag className="size-5" strokeWidth={1.75} aria-hidden="true" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute top-1 right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] leading-none font-bold text-primary-foreground tabular-nums ring-2 ring-background"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </>
  );
}

/**
 * The cart in the navigation bar: always a real link to /cart, so it works before hydration and
 * without JavaScript (and a modified click still opens /cart in a new tab). Once hydrated a plain
 * click opens the dropdown instead. On /cart itself it stays a plain link.
 */
export function CartButton({ count }: { count: number }) {
  const { pathname } = useLocation();
  if (pathname === "/cart") return <CartLink count={count} />;
  return <CartDropdown count={count} />;
}

type CartLinkProps = { count: number } & Omit<React.ComponentPropsWithoutRef<typeof Link>, "to">;

const CartLink = forwardRef<HTMLAnchorElement, CartLinkProps>(({ count, ...props }, ref) => {
  const hydrated = useHydrated();
  return (
    <Link
      ref={ref}
      to="/cart"
      prefetch="intent"
      aria-label={cartLabel(count)}
      data-testid="cart-button"
      data-hydrated={hydrated ? "" : undefined}
      className={triggerClass}
      {...props}
    >
      <BagIcon count={count} />
    </Link>
  );
});
CartLink.displayName = "CartLink";

const loadCartPopover = () => import("./cart/cart-popover");
const CartPopover = lazy(loadCartPopover);

const isModified = (event: React.MouseEvent) => event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0;

function CartDropdown({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  const live = useLiveCart(open);
  // The root loader's count is fresh after every change made here; a refetch on focus may know
  // better (another tab), until the root loader speaks again.
  const [fetched, setFetched] = useState<{ count: number; base: number } | null>(null);
  const liveCount = live.cart?.count;
  useEffect(() => {
    if (liveCount !== undefined) setFetched({ count: liveCount, base: count });
    // Only a new fetch result moves the badge, not a new root count.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live.cart]);
  const badge = fetched && fetched.base === count ? fetched.count : count;

  const anchor = useRef<HTMLAnchorElement>(null);
  // The dropdown's code is fetched on the first sign of interest, so a click rarely waits for it.
  const [wanted, setWanted] = useState(false);
  const want = () => {
    if (!wanted) setWanted(true);
    void loadCartPopover();
  };

  return (
    <>
      <CartLink
        ref={anchor}
        count={badge}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={want}
        onFocus={want}
        onClick={(event) => {
          if (isModified(event)) return;
          // Handled here: the dropdown is controlled, so the link must not also navigate.
          event.preventDefault();
          want();
          setOpen((was) => !was);
        }}
      />
      {wanted ? (
        <Suspense fallback={null}>
          <CartPopover anchor={anchor} open={open} onOpenChange={setOpen} live={live} />
        </Suspense>
      ) : null}
    </>
  );
}
