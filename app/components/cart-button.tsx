import { Link } from "@remix-run/react";
import { ShoppingBag } from "lucide-react";
import { cn } from "~/lib/utils";

export function cartLabel(count: number): string {
  return `Shopping cart, ${count} ${count === 1 ? "item" : "items"}`;
}

/**
 * The cart entry point in the navigation bar: a real link to /cart (works without JavaScript)
 * with a badge for the total number of items. A later change turns it into the cart dropdown.
 */
export function CartButton({ count, className }: { count: number; className?: string }) {
  const shown = count > 99 ? "99+" : String(count);
  return (
    <Link
      to="/cart"
      prefetch="intent"
      aria-label={cartLabel(count)}
      data-testid="cart-button"
      className={cn(
        "relative inline-flex size-11 items-center justify-center rounded-md text-foreground transition-colors",
        "hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        className,
      )}
    >
      <ShoppingBag className="size-5" strokeWidth={1.75} aria-hidden="true" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute top-1 right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] leading-none font-bold text-primary-foreground tabular-nums ring-2 ring-background"
        >
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
