import type { ReactNode } from "react";
import type { PublicProduct } from "#server/contracts/catalog";
import { swatchFor } from "#server/contracts/catalog-view";
import { stockOfChoice } from "#server/contracts/sizes-view";
import { CircleAlert } from "lucide-react";
import { cn } from "#app/lib/utils";

/**
 * The shopper's choice of colour and size (decision 0045): real radio buttons inside the Add To
 * Bag form, so the choice posts without JavaScript; styled as chips, one tab stop per group, arrow
 * keys between options, as native radios are. A size (or, with stock per colour, a colour in the
 * chosen size) at 0 is shown struck through and cannot be chosen.
 */
export function ProductChoices({
  product,
  color,
  size,
  onColor,
  onSize,
  error,
  sizeGuide: guide,
}: {
  product: PublicProduct;
  color: string | null;
  size: string | null;
  onColor: (color: string) => void;
  onSize: (size: string) => void;
  /** A refusal about one of the two choices, shown under its picker ("Please choose a size."). */
  error?: { field: "size" | "color"; message: string } | null;
  /** The product's "Size guide", beside the size picker (or beside "One Size"), when the page draws it here. */
  sizeGuide?: ReactNode;
}) {
  const colors = product.availableColors;
  const sizeError = error?.field === "size" ? error.message : null;
  const colorError = error?.field === "color" ? error.message : null;
  return (
    <div className="space-y-6">
      {colors.length > 0 ? (
        <fieldset aria-describedby={colorError ? "color-error" : undefined}>
          <legend className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">
            Colour: <span className="font-medium tracking-normal text-foreground normal-case">{color}</span>
          </legend>
          <div className="mt-3 flex flex-wrap gap-2" data-testid="color-choices">
            {colors.map((c) => {
              const left = product.variants ? product.variants.filter((v) => v.color === c).reduce((sum, v) => sum + v.inventory, 0) : 1;
              return (
                <label
                  key={c}
                  className={cn(
                    "inline-flex h-10 cursor-pointer items-center gap-2 rounded-full border border-border bg-card/60 pr-3.5 pl-1.5 text-sm",
                    "has-[:checked]:border-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                    left === 0 && "text-muted-foreground line-through",
                  )}
                >
                  <input type="radio" name="color" value={c} className="sr-only" checked={color === c} onChange={() => onColor(c)} />
                  <span
                    aria-hidden="true"
                    className="size-7 rounded-full ring-1 ring-foreground/25 ring-inset"
                    style={{ backgroundColor: swatchFor(c) }}
                  />
                  {c}
                </label>
              );
            })}
          </div>
          {colorError ? <ChoiceError id="color-error" message={colorError} /> : null}
        </fieldset>
      ) : null}
      {product.sizes.length > 0 ? (
        <fieldset aria-describedby={sizeError ? "size-error" : undefined}>
          <legend className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">
            Size{size ? <span className="font-medium tracking-normal text-foreground normal-case">: {size}</span> : null}
          </legend>
          <div className="mt-3 flex flex-wrap gap-2" data-testid="size-choices">
            {product.sizes.map((s) => {
              const left = stockOfChoice(product, s.label, product.variants ? color : null);
              const soldOut = left === 0;
              return (
                <label
                  key={s.label}
                  className={cn(
                    "inline-flex h-11 min-w-14 items-center justify-center rounded-md border border-border px-3 text-sm font-semibold",
                    "has-[:checked]:border-foreground has-[:checked]:bg-foreground has-[:checked]:text-background",
                    "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                    soldOut ? "cursor-not-allowed text-muted-foreground line-through opacity-60" : "cursor-pointer",
                  )}
                >
                  <input
                    type="radio"
                    name="size"
                    value={s.label}
                    className="sr-only"
                    disabled={soldOut}
                    checked={size === s.label}
                    onChange={() => onSize(s.label)}
                  />
                  {s.label}
                  {soldOut ? <span className="sr-only"> (sold out)</span> : null}
                </label>
              );
            })}
          </div>
          {guide ? <div className="mt-2">{guide}</div> : null}
          {sizeError ? <ChoiceError id="size-error" message={sizeError} /> : null}
        </fieldset>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-x-4">
          <p className="text-sm">
            <span className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Size:</span>{" "}
            <span className="font-medium">One Size</span>
          </p>
          {guide}
        </div>
      )}
    </div>
  );
}

function ChoiceError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="alert" className="mt-3 flex items-start gap-2 text-sm text-red-400" data-testid={id}>
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}
