import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { productIdParam } from "#server/contracts/catalog";
import { CATALOG_MESSAGES } from "#server/contracts/catalog-view";
import { NotFound } from "#server/errors";
import { getPublicProduct, listGridProducts, listProductImages } from "#server/services/catalog/catalog";
import { productPageSizes } from "#server/services/catalog/product-page-sizes";
import { drawPanelFor } from "#server/services/drop/draws";
import { PASS_HOLDER_HEADERS, shopperContext } from "#server/http/gate/early-access";
import { requirePassForPage } from "#server/http/gate/waiting-room-gate";

/*
 * /store and /store/{id}, behind the waiting room's gate. Both are pages the page cache keeps
 * (app/store-page-cache.server.ts); what an early-access pass shows is for that browser alone.
 */

/** /store: the products on show. */
export async function storeLoader({ request, context }: LoaderFunctionArgs) {
  await requirePassForPage(request, context);
  const ctx = await shopperContext(await getAppContext(), request);
  const products = await listGridProducts(ctx);
  // What an early-access pass shows is for that browser alone: no cache anywhere may keep it.
  return data({ products }, { headers: ctx.earlyAccess ? PASS_HOLDER_HEADERS : {} });
}

/** /store/{id}: one product and its images; an unknown or hidden product is a 404. */
export async function productPageLoader({ params, request, context }: LoaderFunctionArgs) {
  await requirePassForPage(request, context);
  const ctx = await shopperContext(await getAppContext(), request);
  const id = productIdParam.safeParse(params.productId);
  try {
    if (!id.success) throw new NotFound(CATALOG_MESSAGES.notFound);
    const [product, { images }, draw] = await Promise.all([
      getPublicProduct(ctx, id.data),
      listProductImages(ctx, id.data),
      // Sold by draw: the page shows the draw instead of Add To Bag (decision 0047).
      drawPanelFor(ctx, id.data),
    ]);
    // Primary first, then display order (the sort is stable).
    const ordered = [...images].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary));
    // ?image= is how the thumbnails work without JavaScript (a parameter the page cache keys on:
    // PAGE_QUERIES in app/store-page-cache.server.ts).
    const requested = Number(new URL(request.url).searchParams.get("image"));
    const selectedImageId = ordered.find((image) => image.id === requested)?.id ?? ordered[0]?.id ?? null;
    // What an early-access pass shows is for that browser alone: no cache anywhere may keep it.
    return data(
      { product, images: ordered, selectedImageId, draw, ...productPageSizes(product, draw) },
      { headers: ctx.earlyAccess ? PASS_HOLDER_HEADERS : {} },
    );
  } catch (error) {
    if (error instanceof NotFound) throw data(CATALOG_MESSAGES.notFound, { status: 404 });
    throw error;
  }
}
