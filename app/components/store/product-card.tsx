import { fewSizesLeft } from "#server/contracts/sizes-view";
import { Link, useNavigation } from "@remix-run/react";
import type { GridProduct } from "#server/contracts/catalog";
import { Spinner } from "#app/components/spinner";
import { cn } from "#app/lib/utils";
import { ProductImage } from "./product-image";
import { formatReleaseDate, Price, StatusBadge } from "./product-labels";

/** At or below this many units a card says how few are left: limited means limited. */
export const LOW_STOCK = 10;

export function ProductCard({ product, number, priority }: { product: GridProduct; number: number; priority: boolean }) {
  const to = `/store/${product.id}`;
  const navigation = useNavigation();
  const opening = navigation.state === "loading" && navigation.location.pathname === to;
  const soldOut = !product.isComingSoon && product.inventory === 0;
  const lowStock = !product.isComingSoon && product.inventory > 0 && product.inventory <= LOW_STOCK;

  return (
    <li>
      <Link to={to} prefetch="intent" className="group block rounded-md outline-offset-4" data-testid="product-card">
        <div className="relative aspect-[4/5] overflow-hidden rounded-md bg-card">
          <ProductImage
            image={product}
            alt={product.name}
            sizes="(min-width: 1280px) 296px, (min-width: 1024px) 23vw, 46vw"
            priority={priority}
            className={cn(
              "transition-[transform,filter,opacity] duration-700 ease-out group-hover:scale-[1.04]",
              soldOut && "opacity-55 grayscale",
            )}
          />
          <div className="absolute top-2.5 left-2.5 flex flex-col items-start gap-1.5 sm:top-3 sm:left-3">
            {product.isComingSoon ? <StatusBadge kind="coming-soon" /> : null}
            {product.inventory === 0 ? <StatusBadge kind="sold-out" /> : null}
          </div>
          <span
            aria-hidden="true"
            className="absolute top-3 right-3 font-mono text-[11px] tracking-[0.1em] text-foreground/60 tabular-nums sm:top-3.5 sm:right-3.5"
          >
            {String(number).padStart(2, "0")}
          </span>
          {opening ? (
            <div className="absolute inset-0 flex items-center justify-center bg-background/40 backdrop-blur-[2px]">
              <Spinner className="size-8" label={`Opening ${product.name}`} />
            </div>
          ) : null}
        </div>
        <div className="mt-3 space-y-1.5 sm:mt-4">
          <h2 className="text-[12px] leading-snug font-semibold tracking-[0.16em] uppercase underline-offset-4 group-hover:underline sm:text-[13px]">
            {product.name}
          </h2>
          <Price product={product} />
          {product.isComingSoon && product.releaseDate ? (
            <p className="text-xs text-muted-foreground">Expected {formatReleaseDate(product.releaseDate)}</p>
          ) : null}
          {lowStock ? <p className="text-xs text-muted-foreground">Only {product.inventory} left</p> : null}
          {!soldOut && !product.isComingSoon && fewSizesLeft(product.sizes ?? []) ? (
            <p className="text-xs text-muted-foreground" data-testid="few-sizes-left">
              Few sizes left
            </p>
          ) : null}
        </div>
      </Link>
    </li>
  );
}
