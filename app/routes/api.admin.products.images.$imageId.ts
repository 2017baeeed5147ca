import { IMAGE_MESSAGES, imagePatchSchema } from "../../server/contracts/admin-products";
import { productIdParam } from "../../server/contracts/catalog";
import { NotFound } from "../../server/errors";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { deleteProductImage, updateProductImage } from "../../server/services/product-images";

const ALLOWED = ["PATCH", "DELETE"];

/**
 * PATCH `{ isPrimary?, displayOrder? }` → the updated image (isPrimary true moves the product's one
 * primary here). DELETE → `{ message, id, productId }`; a deleted primary hands over to the next.
 */
export const action = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  if (!ALLOWED.includes(request.method)) return methodNotAllowed(ALLOWED);
  const body = request.method === "PATCH" ? await parseJsonBody(request, imagePatchSchema) : null;
  const imageId = productIdParam.safeParse(params.imageId);
  if (!imageId.success) throw new NotFound(IMAGE_MESSAGES.notFound);
  const headers = { "Cache-Control": "private, no-store" };
  if (body) return Response.json(await updateProductImage(ctx, imageId.data, body), { headers });
  const deleted = await deleteProductImage(ctx, imageId.data);
  return Response.json({ message: "Image deleted.", ...deleted }, { headers });
});

// Admins only, even to learn which methods exist.
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(ALLOWED);
});
