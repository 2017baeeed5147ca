import { fetchRequestFor, type RequestHead } from "#server/http/requests/request-head";
import { jsonAnswer } from "#server/http/json-answer";
import {
  IMAGE_MESSAGES,
  MAX_UPLOAD_BODY_BYTES,
  PRODUCT_MESSAGES,
  imagePatchSchema,
  imageUploadFieldsSchema,
  productInputSchema,
  productPatchSchema,
} from "#server/contracts/admin-products";
import { productIdParam } from "#server/contracts/catalog";
import { Invalid, NotFound } from "#server/errors";
import { jsonError, pathId } from "#server/http/rest";
import { createProduct, deleteProduct, getAdminProduct, listAdminProducts, updateProduct } from "#server/services/catalog/admin-products";
import { ImageRejected, imageBytesOf } from "#server/services/catalog/image-upload-check";
import {
  addProductImage,
  deleteProductImage,
  listAdminImages,
  updateProductImage,
  uploadProductImage,
} from "#server/services/catalog/product-images";
import { route } from "#server/api/route";

const idOf = (params: Record<string, string | undefined>) => pathId(params.id, PRODUCT_MESSAGES.notFound);

const imageIdOf = (params: Record<string, string | undefined>) => {
  const imageId = productIdParam.safeParse(params.imageId);
  if (!imageId.success) throw new NotFound(IMAGE_MESSAGES.notFound);
  return imageId.data;
};

/**
 * A multipart upload's form, refused by its Content-Length before a byte of the body is read:
 * 411 without one, 413 over 5 MB.
 */
async function uploadedForm(head: RequestHead): Promise<FormData | Response> {
  const request = fetchRequestFor(head);
  const length = request.headers.get("Content-Length");
  if (length === null) return jsonError(411, IMAGE_MESSAGES.lengthRequired);
  if (Number(length) > MAX_UPLOAD_BODY_BYTES) return jsonError(413, IMAGE_MESSAGES.tooLarge, { image: [IMAGE_MESSAGES.tooLarge] });
  return request.formData().catch(() => {
    throw new Invalid(IMAGE_MESSAGES.noFile, { image: [IMAGE_MESSAGES.noFileDescription] });
  });
}

export const adminProductRoutes = [
  /** GET /api/admin/products: every product (hidden and unreleased too) as an array, prices in dollars. */
  route({
    method: "GET",
    path: "/api/admin/products",
    guard: "admin",
    handle: ({ ctx }) => listAdminProducts(ctx),
  }),

  /** POST /api/admin/products: the product fields (JSON) → 201 with the product. */
  route({
    method: "POST",
    path: "/api/admin/products",
    guard: "admin",
    input: productInputSchema,
    status: 201,
    handle: ({ input, ctx }) => createProduct(ctx, input),
  }),

  /** GET /api/admin/products/{id}: one product as the admin sees it. */
  route({
    method: "GET",
    path: "/api/admin/products/:id",
    guard: "admin",
    handle: ({ params, ctx }) => getAdminProduct(ctx, idOf(params)),
  }),

  /** PATCH /api/admin/products/{id}: any of the product fields (the list's show/hide sends `{ isVisible }` only) → the updated product. */
  route({
    method: "PATCH",
    path: "/api/admin/products/:id",
    guard: "admin",
    input: productPatchSchema,
    handle: ({ params, input, ctx }) => updateProduct(ctx, idOf(params), input),
  }),

  /** DELETE /api/admin/products/{id} → `{ message, id }`; the product's images go with it, files included. */
  route({
    method: "DELETE",
    path: "/api/admin/products/:id",
    guard: "admin",
    handle: async ({ params, ctx }) => {
      const { id } = await deleteProduct(ctx, idOf(params));
      return { message: "Product deleted.", id };
    },
  }),

  /** GET /api/admin/products/{id}/images: `{ productId, images }`, for hidden products too. */
  route({
    method: "GET",
    path: "/api/admin/products/:id/images",
    guard: "admin",
    handle: ({ params, ctx }) => listAdminImages(ctx, idOf(params)),
  }),

  /**
   * POST /api/admin/products/{id}/images, multipart `image` (+ optional `isPrimary`, `displayOrder`)
   * → 201 with the image. The first image of a product becomes primary. 413 when over 5 MB (judged
   * from Content-Length before the body is read), 415 when the content is not a JPG, PNG or GIF.
   */
  route({
    method: "POST",
    path: "/api/admin/products/:id/images",
    guard: "admin",
    handle: async ({ request, params, ctx }) => {
      const productId = idOf(params);
      const form = await uploadedForm(request);
      if (form instanceof Response) return form;
      const options = imageUploadFieldsSchema.safeParse({
        isPrimary: form.get("isPrimary") ?? undefined,
        displayOrder: form.get("displayOrder") ?? undefined,
      });
      if (!options.success) throw Invalid.fromZod(options.error);
      try {
        const image = await addProductImage(ctx, productId, await imageBytesOf(form.get("image")), options.data);
        return jsonAnswer(image, { status: 201 });
      } catch (error) {
        if (error instanceof ImageRejected) return jsonError(error.status, error.message, error.fieldErrors);
        throw error;
      }
    },
  }),

  /** PATCH /api/admin/products/images/{imageId} `{ isPrimary?, displayOrder? }` → the updated image (isPrimary true moves the product's one primary here). */
  route({
    method: "PATCH",
    path: "/api/admin/products/images/:imageId",
    guard: "admin",
    input: imagePatchSchema,
    handle: ({ params, input, ctx }) => updateProductImage(ctx, imageIdOf(params), input),
  }),

  /** DELETE /api/admin/products/images/{imageId} → `{ message, id, productId }`; a deleted primary hands over to the next. */
  route({
    method: "DELETE",
    path: "/api/admin/products/images/:imageId",
    guard: "admin",
    handle: async ({ params, ctx }) => ({ message: "Image deleted.", ...(await deleteProductImage(ctx, imageIdOf(params))) }),
  }),

  /**
   * POST /api/admin/upload-product-image, multipart `image` → 201 `{ imageUrl, clearImagePath: true }`:
   * a picture for the product form's imageUrl. The size is judged from Content-Length before a byte
   * of the body is read (413), the type from the content (415).
   */
  route({
    method: "POST",
    path: "/api/admin/upload-product-image",
    guard: "admin",
    handle: async ({ request, ctx }) => {
      const form = await uploadedForm(request);
      if (form instanceof Response) return form;
      try {
        const uploaded = await uploadProductImage(ctx, await imageBytesOf(form.get("image")));
        return jsonAnswer(uploaded, { status: 201 });
      } catch (error) {
        if (error instanceof ImageRejected) return jsonError(error.status, error.message, error.fieldErrors);
        throw error;
      }
    },
  }),
];
