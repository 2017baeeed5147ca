import { Link, useActionData, useFetcher } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { PublicProduct } from "#server/contracts/catalog";
import { stockOfChoice } from "#server/contracts/sizes-view";
import { ProductChoices } from "./product-choices";
import { ArrowRight, CircleAlert, LoaderCircle } from "lucide-react";
import type { AddToBagData } from "#server/contracts/cart-view";
import { EnhancedField } from "#app/components/cart/enhanced-field";
import { HoneypotField } from "#app/components/honeypot-field";
import { Button } from "#app/components/ui/button";
import { useNoticeToast } from "#app/lib/use-notice-toast";

/** The colour chosen to start with: the first one still in stock, as stores preselect the first variant. */
export function firstColor(product: PublicProduct): string | null {
  const colors = product.availableColors;
  if (colors.length === 0) return null;
  if (!product.variants) return colors[0]!;
  return colors.find((c) => product.variants!.some((v) => v.color === c && v.inventory > 0)) ?? colors[0]!;
}

/**
 * "Add To Bag": a real form posting to the product page (without JavaScript the page comes back
 * with the result as a flash toast); with JavaScript it posts in place, says "Adding to Bag...",
 * toasts the result and keeps it beside the button. The colour and size radios are part of it
 * (decision 0045); with JavaScript the button waits for a size, without it the server says
 * "Please choose a size.".
 */
export function AddToBag({
  product,
  sizeGuide,
}: {
  product: PublicProduct;
  /** The product's "Size guide" (decision 0057), when the page draws it here: beside the size choice. */
  sizeGuide?: ReactNode;
}) {
  const productId = product.id;
  const hydrated = useHydrated();
  const [color, setColor] = useState<string | null>(() => firstColor(product));
  const [size, setSize] = useState<string | null>(null);
  const needsSize = product.sizes.length > 0;
  const chooseColor = (next: string) => {
    setColor(next);
    // A size sold out in the new colour is no longer a choice.
    if (size !== null && product.variants && stockOfChoice(product, size, next) === 0) setSize(null);
  };
  const waiting = hydrated && needsSize && size === null;
  // Keyed per product: moving to another product page must not carry this one's result over.
  const fetcher = useFetcher<AddToBagData>({ key: `add-to-bag-${productId}` });
  // Without JavaScript a choice to make again comes back as the page's own action data (a 400).
  const pageResult = useActionData<unknown>();
  const result = fetcher.data ?? (isAddToBagData(pageResult) ? pageResult : undefined);
  const pending = fetcher.state !== "idle";
  useNoticeToast(fetcher.data?.notice, fetcher.data);
  const choiceError = result && !result.ok && !pending && result.field ? { field: result.field, message: result.notice.description } : null;

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
      <ProductChoices
        product={product}
        color={color}
        size={size}
        onColor={chooseColor}
        onSize={setSize}
        error={choiceError}
        sizeGuide={sizeGuide}
      />
      <Button
        type="submit"
        size="lg"
        className="h-14 w-full text-[15px] tracking-[0.18em]"
        aria-disabled={pending || undefined}
        disabled={waiting}
        data-testid="add-to-bag"
      >
        {pending ? (
          <>
            <LoaderCircle className="motion-keep size-5 animate-spin" aria-hidden="true" />
            Adding to Bag...
          </>
        ) : (
          "Add To Bag"
        )}
      </Button>
      {waiting ? <p className="text-sm text-muted-foreground">Choose a size to add it to your bag.</p> : null}
      <div aria-live="polite" className="text-sm">
        {result && !pending && !choiceError ? (
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
            <p role="alert" className="flex flex-wrap items-start gap-x-3 gap-y-1 text-red-400" data-testid="add-to-bag-result">
              <span className="flex items-start gap-2">
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {result.notice.description}
              </span>
              {result.waitingRoomUrl ? (
                <Link
                  to={result.waitingRoomUrl}
                  className="inline-flex min-h-11 items-center gap-1 font-semibold text-foreground underline underline-offset-4"
                >
                  Join the line
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              ) : null}
            </p>
          )
        ) : null}
      </div>
    </fetcher.Form>
  );
}

function isAddToBagData(value: unknown): value is AddToBagData {
  return typeof value === "object" && value !== null && typeof (value as AddToBagData).notice?.description === "string";
}
