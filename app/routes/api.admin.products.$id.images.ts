import { IMAGE_MESSAGES, MAX_UPLOAD_BODY_BYTES, PRODUCT_MESSAGES, imageUploadFieldsSchema } from "../../server/contracts/admin-products";
import { Invalid } from "../../server/errors";
import { requireAdminApi } from "../../server/http/auth";
import { jsonError, methodNotAllowed, pathId, rest } from "../../server/http/rest";
import { ImageRejected, addProductImage, imageBytesOf, listAdminImages } from "../../server/services/product-images";

const NO_STORE = { "Cache-Control": "private, no-store" };

const idOf = (params: Record<string, string | undefined>) => pathId(params.id, PRODUCT_MESSAGES.notFound);

/** GET /api/admin/products/{id}/images: `{ productId, images }`, for hidden products too. */
export const loader = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await listAdminImages(ctx, idOf(params)), { headers: NO_STORE });
});

/**
 * POST multipart `image` (+ optional `isPrimary`, `displayOrder`) → 201 with the image. The first
 * image of a product becomes primary. 413 when over 5 MB (judged from Content-Length before the
 * body is read), 415 when the content is not a JPG, PNG or GIF.
 */
export const action = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const productId = idOf(params);
  const length = request.headers.get("Content-Length");
  if (length === null) return jsonError(411, IMAGE_MESSAGES.lengthRequired);
  if (Number(length) > MAX_UPLOAD_BODY_BYTES) return jsonError(413, IMAGE_MESSAGES.tooLarge, { image: [IMAGE_MESSAGES.tooLarge] });
  const form = await request.formData().catch(() => {
    throw new Invalid(IMAGE_MESSAGES.noFile, { image: [IMAGE_MESSAGES.noFileDescription] });
  });
  const options = imageUploadFieldsSchema.safeParse({
    isPrimary: form.get("isPrimary") ?? undefined,
    displayOrder: form.get("displayOrder") ?? undefined,
  });
  if (!options.success) throw Invalid.fromZod(options.error);
  try {
    const image = await addProductImage(ctx, productId, await imageBytesOf(form.get("image")), options.data);
    return Response.json(image, { status: 201, headers: NO_STORE });
  } catch (error) {
    if (error instanceof ImageRejected) return jsonError(error.status, error.message, error.fieldErrors);
    throw error;
  }
});
