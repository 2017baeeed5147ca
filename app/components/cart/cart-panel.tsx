import * as Popover from "@radix-ui/react-popover";
import { Link, useNavigate } from "@remix-run/react";
import { ArrowRight, RotateCw, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { cartRowOf } from "#server/contracts/cart-view";
import { formatUsd } from "#server/contracts/money";
import { Spinner } from "#app/components/spinner";
import { Button } from "#app/components/ui/button";
import { CartLineRow } from "./cart-line";
import { useCartFetchers } from "./use-cart-fetchers";
import { useLineFocus } from "./use-line-focus";
import type { LiveCart } from "./use-live-cart";

const adopted = new WeakSet<object>();

/** The dropdown's body: title, lines with plus/minus/remove, total, Checkout. */
export function CartPanel({ live, onClose }: { live: LiveCart; onClose: () => void }) {
  const fetchers = useCartFetchers();
  const navigate = useNavigate();
  const { adopt } = live;
  const updated = fetchers.update.data;
  const removed = fetchers.remove.data;
  // Each change answers with the bag as it now is: show that rather than asking again. An answer
  // seen by an earlier opening is older than the fetch this opening starts.
  useEffect(() => {
    for (const answer of [updated, removed]) {
      if (!answer || adopted.has(answer)) continue;
      adopted.add(answer);
      if (answer.cart) adopt(answer.cart);
    }
  }, [updated, removed, adopt]);

  const { cart } = live;
  const shop = useRef<HTMLAnchorElement>(null);
  const lineFocus = useLineFocus(cart?.cartItems.map((line) => line.productId) ?? [], () => shop.current);
  return (
    <>
      <div className="flex items-center justify-between gap-4 border-b border-border py-2 pr-2 pl-5">
        <h2 className="font-display text-2xl leading-none tracking-[0.04em] uppercase">Shopping Cart</h2>
        <Popover.Close
          aria-label="Close cart"
          className="inline-flex size-11 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-foreground"
        >
          <X className="size-5" aria-hidden="true" />
        </Popover.Close>
      </div>

      {!cart ? (
        live.failed ? (
          <div className="flex flex-col items-start gap-3 px-5 py-8 text-sm">
            <p role="alert" className="text-muted-foreground">
              We couldn't load your bag.
            </p>
            <Button variant="outline" size="sm" onClick={() => void live.reload()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <div className="flex justify-center px-5 py-12">
            <Spinner className="size-7" label="Loading your bag" />
          </div>
        )
      ) : cart.cartItems.length === 0 ? (
        <div className="flex flex-col items-center gap-5 px-5 py-12 text-center">
          <p className="text-base text-muted-foreground">Your cart is empty</p>
          <Button asChild variant="outline" size="sm">
            <Link ref={shop} to="/store" onClick={onClose}>
              Shop the drop
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      ) : (
        <>
          <ul
            ref={lineFocus.ref}
            onFocus={lineFocus.onFocus}
            onBlur={lineFocus.onBlur}
            className="min-h-0 flex-1 divide-y divide-border overflow-y-auto overscroll-contain px-5"
            aria-label="Items in your bag"
          >
            {cart.cartItems.map((line) => (
              <CartLineRow key={line.id} line={cartRowOf(line)} fetchers={fetchers} onNavigate={onClose} />
            ))}
          </ul>
          <div className="space-y-4 border-t border-border bg-card/60 px-5 pt-4 pb-5">
            <p className="flex items-baseline justify-between">
              <span className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Total</span>
              <span className="text-xl font-medium tabular-nums" data-testid="cart-total">
                {formatUsd(cart.totalPrice)}
              </span>
            </p>
            <Button
              size="lg"
              className="w-full"
              onClick={() => {
                onClose();
                navigate("/checkout");
              }}
            >
              Checkout
            </Button>
            <Link
              to="/cart"
              onClick={onClose}
              className="mx-auto flex min-h-11 w-fit items-center text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase underline-offset-4 hover:text-foreground hover:underline"
            >
              View full bag
            </Link>
          </div>
        </>
      )}
    </>
  );
}
