import { CATALOG_MESSAGES, productIdParam } from "#server/contracts/catalog";
import { NotFound } from "#server/errors";
import { getPublicProduct, listProductImages, listVisibleProducts } from "#server/services/catalog/catalog";
import { route } from "#server/api/route";

export const catalogRoutes = [
  /** GET /api/products: the visible, released products with public fields only, as an array. */
  route({
    method: "GET",
    path: "/api/products",
    guard: "public",
    handle: ({ ctx }) => listVisibleProducts(ctx),
  }),

  /** GET /api/products/{id}: one product as the list shows it; 404 for a product shoppers cannot see. */
  route({
    method: "GET",
    path: "/api/products/:id",
    guard: "public",
    handle: async ({ ctx, params }) => {
      const id = productIdParam.safeParse(params.id);
      if (!id.success) throw new NotFound(CATALOG_MESSAGES.notFound);
      return getPublicProduct(ctx, id.data);
    },
  }),

  /** GET /api/products/{id}/images: `{ productId, images }`; 404 for a product shoppers cannot see. */
  route({
    method: "GET",
    path: "/api/products/:id/images",
    guard: "public",
    handle: async ({ ctx, params }) => {
      const id = productIdParam.safeParse(params.id);
      if (!id.success) throw new NotFound(CATALOG_MESSAGES.notFound);
      return listProductImages(ctx, id.data);
    },
  }),
];
