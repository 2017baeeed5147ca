import { PRODUCT_MESSAGES, productPatchSchema } from "../../server/contracts/admin-products";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, pathId, rest } from "../../server/http/rest";
import { deleteProduct, getAdminProduct, updateProduct } from "../../server/services/admin-products";

const NO_STORE = { "Cache-Control": "private, no-store" };

const idOf = (params: Record<string, string | undefined>) => pathId(params.id, PRODUCT_MESSAGES.notFound);

/** GET /api/admin/products/{id}: one product as the admin sees it. */
export const loader = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await getAdminProduct(ctx, idOf(params)), { headers: NO_STORE });
});

/**
 * PATCH: any of the product fields (the list's show/hide sends `{ isVisible }` only) → the updated
 * product. DELETE → `{ message, id }`; the product's images go with it, files included.
 */
export const action = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method === "PATCH") {
    const patch = await parseJsonBody(request, productPatchSchema);
    return Response.json(await updateProduct(ctx, idOf(params), patch), { headers: NO_STORE });
  }
  if (request.method === "DELETE") {
    const { id } = await deleteProduct(ctx, idOf(params));
    return Response.json({ message: "Product deleted.", id }, { headers: NO_STORE });
  }
  return methodNotAllowed(["GET", "PATCH", "DELETE"]);
});
