import { Link } from "@remix-run/react";
import { Minus, Plus, X } from "lucide-react";
import type { CartRow } from "#server/contracts/cart-view";
import { choiceLabel } from "#server/contracts/sizes-view";
import { formatUsd } from "#server/contracts/money";
import { HoneypotField } from "#app/components/honeypot-field";
import { PriceLine } from "#app/components/price-line";
import { ProductImage } from "#app/components/store/product-image";
import { cn } from "#app/lib/utils";
import { EnhancedField } from "./enhanced-field";
import type { CartFetchers } from "./use-cart-fetchers";

/**
 * The quantity to show while a plus or minus is in flight. The form carries the quantity it was
 * pressed at ("from"): until the line on screen has moved past it, show the change already made.
 */
/** Whether a posted cart form is about this line (the product, and its size and colour). */
const isLine = (form: FormData | undefined, line: CartRow) =>
  !!form &&
  Number(form.get("productId")) === line.productId &&
  (form.get("size") ?? "") === (line.size ?? "") &&
  (form.get("color") ?? "") === (line.color ?? "");

/** A line's key for React and for element ids: product, size and colour. */
export const lineKeyOf = (line: Pick<CartRow, "productId" | "size" | "color">) =>
  [line.productId, line.size ?? "", line.color ?? ""].join("-").replace(/[^A-Za-z0-9-]/g, "_");

/** The hidden fields naming a line: its product, size and colour (decision 0045). */
function LineFields({ line }: { line: CartRow }) {
  return (
    <>
      <input type="hidden" name="productId" value={line.productId} />
      {line.size !== null ? <input type="hidden" name="size" value={line.size} /> : null}
      {line.color !== null ? <input type="hidden" name="color" value={line.color} /> : null}
    </>
  );
}

function optimisticQuantity(line: CartRow, update: CartFetchers["update"]): number {
  const form = update.formData;
  if (!form || !isLine(form, line) || Number(form.get("from")) !== line.quantity) return line.quantity;
  const intent = form.get("intent");
  return intent === "increment" ? line.quantity + 1 : intent === "decrement" ? line.quantity - 1 : line.quantity;
}

/**
 * Why plus stops, said beside it (a greyed-out plus alone gave no reason): the per-customer limit,
 * or the shelf. An available line at the shelf's limit holds every unit left, so that count is its
 * own quantity. Null while plus can add, and for a line no longer available (its notice says why).
 */
export function plusLimitNote(line: Pick<CartRow, "quantity" | "available" | "canAddMore" | "product">): string | null {
  if (line.canAddMore || !line.available || line.quantity < 1) return null;
  const max = line.product.maxPerCustomer;
  return max !== null && line.quantity >= max ? "Limit reached" : `Only ${line.quantity} left`;
}

/**
 * One line of the bag with its plus, minus and remove buttons: real forms posting to /cart (so the
 * /cart page works without JavaScript); with JavaScript they go through the shared fetchers.
 */
export function CartLineRow({
  line,
  fetchers,
  size = "sm",
  onNavigate,
}: {
  line: CartRow;
  fetchers: CartFetchers;
  size?: "sm" | "lg";
  onNavigate?: () => void;
}) {
  const { update, remove } = fetchers;
  const updating = update.state !== "idle";
  const removing = remove.state !== "idle";
  const leaving = removing && isLine(remove.formData, line);
  const chosen = choiceLabel(line.size, line.color);
  const quantity = optimisticQuantity(line, update);
  const { product } = line;
  const large = size === "lg";
  const limitNote = plusLimitNote(line);
  const limitId = `plus-limit-${size}-${line.productId}`;

  return (
    <li
      data-testid="cart-line"
      className={cn("flex gap-4 transition-opacity", large ? "py-6" : "py-4", (leaving || quantity < 1) && "opacity-40")}
    >
      <Link
        to={`/store/${line.productId}`}
        onClick={onNavigate}
        tabIndex={-1}
        aria-hidden="true"
        className={cn("shrink-0 overflow-hidden rounded-md bg-card", large ? "h-32 w-26 sm:h-36 sm:w-28" : "h-20 w-16")}
      >
        <ProductImage image={{ ...product, imagePath: null }} alt="" sizes={large ? "112px" : "64px"} />
      </Link>

      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-start justify-between gap-3">
          <Link
            to={`/store/${line.productId}`}
            onClick={onNavigate}
            data-line-focus
            className={cn(
              "font-semibold tracking-[0.14em] uppercase underline-offset-4 hover:underline",
              large ? "text-sm" : "text-[12px] leading-snug",
            )}
          >
            {product.name}
          </Link>
          <p className={cn("shrink-0 tabular-nums", large ? "text-base font-medium" : "text-sm")} data-testid="line-total">
            {formatUsd(line.lineTotal)}
          </p>
        </div>
        {chosen ? (
          <p className={cn("text-muted-foreground", large ? "text-sm" : "text-xs")} data-testid="line-choice">
            {chosen}
          </p>
        ) : null}
        <PriceLine unitPrice={line.unitPrice}>
          {product.discountPercent > 0 ? (
            <>
              <s>{formatUsd(product.price)}</s>
              <span className="font-semibold tracking-[0.1em] text-sale">-{product.discountPercent}% OFF</span>
            </>
          ) : null}
        </PriceLine>
        {product.maxPerCustomer !== null && line.available ? (
          <p className="text-xs text-muted-foreground" data-testid="line-limit">
            Limit {product.maxPerCustomer} per customer
          </p>
        ) : null}
        {line.notice ? (
          <p className="text-xs font-medium text-red-400" data-testid="line-notice">
            {line.notice}
          </p>
        ) : null}

        {/* Wraps on a narrow line with a limit note: Remove goes below, on the right. */}
        <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-2">
          <div className="flex min-w-0 items-center gap-2">
            <div className="inline-flex items-center rounded-md border border-border">
              <StepButton
                fetcher={update}
                line={line}
                intent="decrement"
                disabled={updating}
                label={`Decrease quantity of ${product.name}`}
              >
                <Minus className="size-4" aria-hidden="true" />
              </StepButton>
              <span className="min-w-8 text-center text-sm font-medium tabular-nums" aria-live="polite" data-testid="line-quantity">
                <span className="sr-only">Quantity </span>
                {Math.max(quantity, 0)}
              </span>
              <StepButton
                fetcher={update}
                line={line}
                intent="increment"
                disabled={updating || !line.canAddMore || !line.available}
                label={`Increase quantity of ${product.name}`}
                describedBy={limitNote ? limitId : undefined}
              >
                <Plus className="size-4" aria-hidden="true" />
              </StepButton>
            </div>
            {limitNote ? (
              <span id={limitId} className="text-xs whitespace-nowrap text-muted-foreground" data-testid="plus-limit">
                {limitNote}
              </span>
            ) : null}
          </div>
          <remove.Form method="post" action="/cart" className="ml-auto">
            <EnhancedField />
            <HoneypotField idPrefix={`remove-${lineKeyOf(line)}`} />
            <input type="hidden" name="intent" value="remove" />
            <LineFields line={line} />
            <button
              type="submit"
              disabled={removing}
              aria-label={`Remove ${product.name}`}
              className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-2 text-xs font-semibold tracking-[0.14em] text-muted-foreground uppercase transition-colors hover:text-foreground disabled:opacity-40"
            >
              <X className="size-3.5" aria-hidden="true" />
              Remove
            </button>
          </remove.Form>
        </div>
      </div>
    </li>
  );
}

function StepButton({
  fetcher,
  line,
  intent,
  disabled,
  label,
  describedBy,
  children,
}: {
  fetcher: CartFetchers["update"];
  line: CartRow;
  intent: "increment" | "decrement";
  disabled: boolean;
  label: string;
  describedBy?: string;
  children: React.ReactNode;
}) {
  return (
    <fetcher.Form method="post" action="/cart" className="contents">
      <EnhancedField />
      <HoneypotField idPrefix={`${intent}-${lineKeyOf(line)}`} />
      <input type="hidden" name="intent" value={intent} />
      <LineFields line={line} />
      <input type="hidden" name="from" value={line.quantity} />
      <button
        type="submit"
        disabled={disabled}
        aria-label={label}
        aria-describedby={describedBy}
        className="inline-flex size-10 items-center justify-center rounded-md text-foreground transition-colors hover:bg-accent disabled:opacity-35"
      >
        {children}
      </button>
    </fetcher.Form>
  );
}
