import {
  imageIdSchema,
  imageReorderSchema,
  productIdSchema,
  productInputSchema,
  productUpdateSchema,
  productVisibilitySchema,
} from "#server/contracts/admin-products";
import {
  createProduct,
  deleteProduct,
  listAdminProducts,
  setProductVisibility,
  updateProduct,
} from "#server/services/catalog/admin-products";
import { deleteProductImage, listAdminImages, reorderImages, setPrimaryImage } from "#server/services/catalog/product-images";
import { adminProcedure, router } from "./init";

/**
 * Admin product and image procedures (issue 5), over the services the REST doors call.
 * Uploads are multipart and go through REST (/api/admin/products/{id}/images): tRPC speaks JSON.
 */
export const adminProductsRouter = router({
  list: adminProcedure.query(({ ctx }) => listAdminProducts(ctx.app)),
  create: adminProcedure.input(productInputSchema).mutation(({ ctx, input }) => createProduct(ctx.app, input)),
  update: adminProcedure.input(productUpdateSchema).mutation(({ ctx, input }) => updateProduct(ctx.app, input.id, input.data)),
  setVisibility: adminProcedure
    .input(productVisibilitySchema)
    .mutation(({ ctx, input }) => setProductVisibility(ctx.app, input.id, input.isVisible)),
  delete: adminProcedure.input(productIdSchema).mutation(({ ctx, input }) => deleteProduct(ctx.app, input.id)),
  images: router({
    list: adminProcedure.input(productIdSchema).query(({ ctx, input }) => listAdminImages(ctx.app, input.id)),
    setPrimary: adminProcedure.input(imageIdSchema).mutation(({ ctx, input }) => setPrimaryImage(ctx.app, input.imageId)),
    reorder: adminProcedure.input(imageReorderSchema).mutation(({ ctx, input }) => reorderImages(ctx.app, input.productId, input.imageIds)),
    delete: adminProcedure.input(imageIdSchema).mutation(({ ctx, input }) => deleteProductImage(ctx.app, input.imageId)),
  }),
});
