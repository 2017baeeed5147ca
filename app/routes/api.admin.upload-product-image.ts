import { IMAGE_MESSAGES, MAX_UPLOAD_BODY_BYTES } from "../../server/contracts/admin-products";
import { Invalid } from "../../server/errors";
import { requireAdminApi } from "../../server/http/auth";
import { jsonError, methodNotAllowed, rest } from "../../server/http/rest";
import { ImageRejected, imageBytesOf, uploadProductImage } from "../../server/services/product-images";

/**
 * POST /api/admin/upload-product-image, multipart `image` → 201 `{ imageUrl, clearImagePath: true }`:
 * a picture for the product form's imageUrl. The size is judged from Content-Length before a byte
 * of the body is read (413), the type from the content (415).
 */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const length = request.headers.get("Content-Length");
  if (length === null) return jsonError(411, IMAGE_MESSAGES.lengthRequired);
  if (Number(length) > MAX_UPLOAD_BODY_BYTES) return jsonError(413, IMAGE_MESSAGES.tooLarge, { image: [IMAGE_MESSAGES.tooLarge] });
  const form = await request.formData().catch(() => {
    throw new Invalid(IMAGE_MESSAGES.noFile, { image: [IMAGE_MESSAGES.noFileDescription] });
  });
  try {
    const uploaded = await uploadProductImage(ctx, await imageBytesOf(form.get("image")));
    return Response.json(uploaded, { status: 201, headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof ImageRejected) return jsonError(error.status, error.message, error.fieldErrors);
    throw error;
  }
});

// Admins only, even to learn which methods exist.
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});
