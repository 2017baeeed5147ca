import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientActionFunctionArgs } from "@remix-run/react";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { CATALOG_MESSAGES } from "#server/contracts/catalog-view";
import { addToBagAction } from "#server/http/doors/cart-door";
import { productPageLoader } from "#server/http/doors/store-door";
import { requirePassForPurchase } from "#server/http/gate/waiting-room-gate";
import { AddToBag } from "#app/components/store/add-to-bag";
import { DrawPanel } from "#app/components/draws/draw-panel";
import { ColorSwatches } from "#app/components/store/color-swatches";
import { SizeGuide } from "#app/components/store/size-guide";
import { Gallery } from "#app/components/store/gallery";
import { formatReleaseDate, Price } from "#app/components/store/product-labels";
import { LOW_STOCK } from "#app/components/store/product-card";
import { RouteErrorPage } from "#app/components/error-pages";
import type { RootData } from "#app/root";
import { refusedAddToBag } from "#app/lib/gate-refusal";
import type { AddToBagData } from "#server/contracts/cart-view";
import type { SizeGuidePlace } from "#server/contracts/size-guide";

// ?image= picks the big picture without JavaScript: a parameter the page cache keys on (PAGE_QUERIES
// in app/store-page-cache.server.ts).
export const loader = (args: LoaderFunctionArgs) => productPageLoader(args);

export const action = async (args: ActionFunctionArgs) => (await requirePassForPurchase(args.request), addToBagAction(args));

/** Add To Bag with a pass that lapsed says so beside the button, with the way back to the line, not on the error page. */
export const clientAction = async ({ serverAction }: ClientActionFunctionArgs): Promise<AddToBagData> => {
  try {
    return await serverAction<AddToBagData>();
  } catch (error) {
    return refusedAddToBag(error);
  }
};

// A page answered to a post (a size to choose, without JavaScript) keeps its action's no-store.
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

export const meta: MetaFunction<typeof loader, { root: RootData }> = ({ data: page, matches }) => {
  const brand = matches.find((match) => match.id === "root")?.data?.brand.name ?? "Store";
  if (!page) return [{ title: `${CATALOG_MESSAGES.notFound} | ${brand}` }];
  const { product } = page;
  return [
    { title: `${product.name} | ${brand}` },
    { name: "description", content: product.description },
    { property: "og:title", content: product.name },
    { property: "og:description", content: product.description },
    ...(product.imageUrl ? [{ property: "og:image", content: product.imageUrl }] : []),
  ];
};

export default function ProductPage() {
  const { product, images, selectedImageId, draw, showsSizes, listedSizes, sizeGuideAt } = useLoaderData<typeof loader>();
  const lowStock = !product.isComingSoon && product.inventory > 0 && product.inventory <= LOW_STOCK;
  // The loader says where the guide goes (productPageSizes): drawn in that one place only.
  const guideAt = (place: SizeGuidePlace) =>
    sizeGuideAt === place && product.sizeGuide ? <SizeGuide text={product.sizeGuide} productName={product.name} /> : null;

  return (
    <article className="mx-auto w-full max-w-7xl px-4 pt-4 pb-20 sm:px-6 sm:pt-6 lg:px-8">
      <BackToProducts />
      <div className="mt-4 grid gap-8 sm:mt-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-14">
        <Gallery key={product.id} product={product} images={images} selectedImageId={selectedImageId} />

        <div className="flex flex-col gap-8 lg:sticky lg:top-24 lg:self-start">
          <header className="space-y-4">
            <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Limited edition</p>
            <h1 className="font-display text-[clamp(3rem,9vw,5.25rem)] leading-[0.88] uppercase">{product.name}</h1>
            <Price product={product} size="lg" />
            {lowStock ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <span aria-hidden="true" className="size-1.5 rounded-full bg-sale" />
                Only {product.inventory} left in this run
              </p>
            ) : null}
          </header>

          {/* On sale, the colour and size are chosen inside the Add To Bag form (the size guide beside
              them), or the size in the draw panel (the guide there, whatever the draw's state); sold out
              or coming soon, they are only shown (a draw's sizes when sold by draw), and the size guide
              beside the sizes (decision 0057). */}
          {showsSizes ? (
            <div className="space-y-6 border-t border-border pt-6">
              <ColorSwatches colors={product.availableColors} />
              <div className="flex flex-wrap items-center justify-between gap-x-4">
                <p className="text-sm">
                  <span className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Size:</span>{" "}
                  <span className="font-medium">{listedSizes.length > 0 ? listedSizes.join(", ") : "One Size"}</span>
                </p>
                {guideAt("sizes")}
              </div>
            </div>
          ) : null}

          <div className="space-y-4 border-t border-border pt-6">
            {draw ? <DrawPanel draw={draw} sizeGuide={guideAt("draw")} /> : <ActionArea product={product} sizeGuide={guideAt("choices")} />}
            {!draw && !product.isComingSoon && product.inventory > 0 ? (
              <ul className="space-y-1.5 text-xs text-muted-foreground">
                <li>Limited run: never restocked once it sells out.</li>
                <li>All sales final: no returns or exchanges.</li>
              </ul>
            ) : null}
          </div>

          <div className="space-y-3 border-t border-border pt-6">
            <h2 className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Description</h2>
            <p className="text-[15px] leading-relaxed whitespace-pre-line text-foreground/90">{product.description}</p>
          </div>

          {product.promoCode && product.discountPercent > 0 ? (
            <PromoCode code={product.promoCode} percent={product.discountPercent} />
          ) : null}
        </div>
      </div>
    </article>
  );
}

function BackToProducts() {
  return (
    <Link
      to="/store"
      prefetch="intent"
      className="-ml-2 inline-flex min-h-11 items-center gap-2 rounded-md px-2 text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase transition-colors hover:text-foreground"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to Products
    </Link>
  );
}

type PageProduct = ReturnType<typeof useLoaderData<typeof loader>>["product"];

function ActionArea({ product, sizeGuide }: { product: PageProduct; sizeGuide: ReactNode }) {
  if (product.isComingSoon) {
    return (
      <div className="rounded-md border border-foreground/30 bg-card px-5 py-5" data-testid="coming-soon-banner">
        <p className="font-display text-4xl leading-none">COMING SOON</p>
        {product.releaseDate ? (
          <p className="mt-2 text-sm text-muted-foreground">Expected {formatReleaseDate(product.releaseDate)}</p>
        ) : null}
      </div>
    );
  }
  if (product.inventory > 0) return <AddToBag product={product} sizeGuide={sizeGuide} />;
  return (
    <div className="space-y-2" data-testid="sold-out-banner">
      <p className="flex h-14 items-center justify-center rounded-md border border-border bg-muted text-[15px] font-semibold tracking-[0.22em] text-muted-foreground">
        SOLD OUT
      </p>
      <p className="text-sm text-muted-foreground">This run is finished and will not be restocked.</p>
    </div>
  );
}

function PromoCode({ code, percent }: { code: string; percent: number }) {
  return (
    <section aria-label="Promo code" className="rounded-md border border-dashed border-foreground/35 p-5">
      <p className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Promo code</p>
      <p className="mt-2 font-mono text-2xl font-semibold tracking-[0.12em]" data-testid="promo-code">
        {code}
      </p>
      <p className="mt-1 text-sm text-muted-foreground">{percent}% off, already taken off the price above.</p>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteErrorPage
      notFoundMessage={`${CATALOG_MESSAGES.notFound} It may have been taken down, or it has not dropped yet.`}
      failedMessage={CATALOG_MESSAGES.loadFailed}
      back={{ to: "/store", label: "Browse the Store" }}
    />
  );
}
