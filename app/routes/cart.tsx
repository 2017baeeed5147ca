import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { ArrowLeft, ArrowRight } from "lucide-react";
import { useRef } from "react";
import type { CartFormData } from "#server/contracts/cart-view";
import { formatUsd } from "#server/contracts/money";
import { cartFormAction, cartPageLoader } from "#server/http/doors/cart-door";
import { requirePassForPurchase } from "#server/http/gate/waiting-room-gate";
import { CartLineRow, lineKeyOf } from "#app/components/cart/cart-line";
import { useCartFetchers } from "#app/components/cart/use-cart-fetchers";
import { useLineFocus } from "#app/components/cart/use-line-focus";
import { refusedCartChange } from "#app/lib/gate-refusal";
import { pageTitle } from "#app/lib/page-title";
import { Button } from "#app/components/ui/button";
import type { RenderMemoHandle } from "#app/render-memo.server";
import type { RootData } from "#app/root";

export const loader = (args: LoaderFunctionArgs) => cartPageLoader(args);

// The page is its loaders' data and nothing else: rendered once for every shopper with the same bag.
export const handle: RenderMemoHandle = { sameDataSamePage: true };

export const action = async (args: ActionFunctionArgs) => (await requirePassForPurchase(args.request), cartFormAction(args));

/**
 * Plus, minus and remove (here and in the bag dropdown) with a pass that lapsed: the bag's toast in
 * the line's words, with the way back to the line, not the error page. Anything else still is.
 */
export const clientAction = async ({ serverAction }: ClientActionFunctionArgs): Promise<CartFormData> => {
  try {
    return await serverAction<CartFormData>();
  } catch (error) {
    return refusedCartChange(error);
  }
};

// A refused change (an item gone from another tab) still means the bag on screen may be stale.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/cart" || defaultShouldRevalidate;

export const meta: MetaFunction<typeof loader, { root: RootData }> = ({ matches }) => {
  return [pageTitle("Shopping Cart", matches), { name: "robots", content: "noindex" }];
};

/** The full cart view: what the bag icon opens without JavaScript, and "View full bag" with it. */
export default function CartPage() {
  const { cart } = useLoaderData<typeof loader>();
  const fetchers = useCartFetchers();
  const count = cart.count;
  const shop = useRef<HTMLAnchorElement>(null);
  const lineFocus = useLineFocus(
    cart.rows.map((line) => line.productId),
    () => shop.current,
  );

  return (
    <section aria-labelledby="cart-title" className="mx-auto w-full max-w-6xl px-4 pt-10 pb-20 sm:px-6 sm:pt-14 lg:px-8">
      <header className="flex flex-wrap items-end justify-between gap-4 border-b border-border pb-6">
        <h1 id="cart-title" className="font-display text-[clamp(3.5rem,11vw,6.5rem)] leading-[0.85] uppercase">
          Shopping Cart
        </h1>
        {count > 0 ? (
          <p className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase tabular-nums">
            {count} {count === 1 ? "item" : "items"}
          </p>
        ) : null}
      </header>

      {cart.rows.length === 0 ? (
        <div className="flex flex-col items-start gap-6 py-16">
          <p className="text-lg text-muted-foreground">Your cart is empty</p>
          <Button asChild>
            <Link ref={shop} to="/store" prefetch="intent">
              Shop the drop
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      ) : (
        <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-14">
          <ul
            ref={lineFocus.ref}
            onFocus={lineFocus.onFocus}
            onBlur={lineFocus.onBlur}
            className="divide-y divide-border"
            aria-label="Items in your bag"
          >
            {cart.rows.map((line) => (
              <CartLineRow key={lineKeyOf(line)} line={line} fetchers={fetchers} size="lg" />
            ))}
          </ul>
          <section aria-label="Order summary" className="lg:pt-6">
            <div className="space-y-5 rounded-lg border border-border bg-card p-6 lg:sticky lg:top-24">
              <p className="flex items-baseline justify-between">
                <span className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Total</span>
                <span className="text-2xl font-medium tabular-nums" data-testid="cart-total">
                  {formatUsd(cart.totalPrice)}
                </span>
              </p>
              <p className="text-xs leading-relaxed text-muted-foreground">Shipping and tax are worked out at checkout.</p>
              <Button asChild size="lg" className="w-full">
                <Link to="/checkout">Checkout</Link>
              </Button>
              <Link
                to="/store"
                className="flex min-h-11 items-center justify-center gap-2 text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase hover:text-foreground"
              >
                <ArrowLeft className="size-4" aria-hidden="true" />
                Continue shopping
              </Link>
            </div>
          </section>
        </div>
      )}
    </section>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
