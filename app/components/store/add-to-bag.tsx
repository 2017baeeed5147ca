import { Link, useFetcher } from "@remix-run/react";
import { ArrowRight, CircleAlert, LoaderCircle } from "lucide-react";
import type { AddToBagData } from "#server/contracts/cart-view";
import { EnhancedField } from "#app/components/cart/enhanced-field";
import { HoneypotField } from "#app/components/honeypot-field";
import { Button } from "#app/components/ui/button";
import { useNoticeToast } from "#app/lib/use-notice-toast";

/**
 * "Add To Bag": a real form posting to the product page (without JavaScript the page comes back
 * with the result as a flash toast); with JavaScript it posts in place, says "Adding to Bag...",
 * toasts the result and keeps it beside the button.
 */
export function AddToBag({ productId }: { productId: number }) {
  // Keyed per product: moving to another product page must not carry this one's result over.
  const fetcher = useFetcher<AddToBagData>({ key: `add-to-bag-${productId}` });
  const result = fetcher.data;
  const pending = fetcher.state !== "idle";
  useNoticeToast(fetcher.data?.notice, fetcher.data);

  return (
    <fetcher.Form
      method="post"
      action={`/store/${productId}`}
      className="space-y-3"
      // Not `disabled` while posting: a disabled button drops the keyboard focus to the page's body.
      onSubmit={(event) => {
        if (pending) event.preventDefault();
      }}
    >
      <EnhancedField />
      <HoneypotField idPrefix={`add-to-bag-${productId}`} />
      <Button type="submit" size="lg" className="h-14 w-full text-[15px] tracking-[0.18em]" aria-disabled={pending || undefined}>
        {pending ? (
          <>
            <LoaderCircle className="motion-keep size-5 animate-spin" aria-hidden="true" />
            Adding to Bag...
          </>
        ) : (
          "Add To Bag"
        )}
      </Button>
      <div aria-live="polite" className="text-sm">
        {result && !pending ? (
          result.ok ? (
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground" data-testid="add-to-bag-result">
              <span className="text-foreground">{result.notice.description}</span>
              <Link
                to="/cart"
                className="inline-flex min-h-11 items-center gap-1 font-semibold text-foreground underline underline-offset-4"
              >
                View bag
                <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
            </p>
          ) : (
            <p role="alert" className="flex items-start gap-2 text-red-400" data-testid="add-to-bag-result">
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {result.notice.description}
            </p>
          )
        ) : null}
      </div>
    </fetcher.Form>
  );
}
