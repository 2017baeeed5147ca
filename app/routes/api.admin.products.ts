import { productInputSchema } from "../../server/contracts/admin-products";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { createProduct, listAdminProducts } from "../../server/services/admin-products";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** GET /api/admin/products: every product (hidden and unreleased too) as an array, prices in dollars. */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await listAdminProducts(ctx), { headers: NO_STORE });
});

/** POST /api/admin/products: the product fields (JSON) → 201 with the product. */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const input = await parseJsonBody(request, productInputSchema);
  return Response.json(await createProduct(ctx, input), { status: 201, headers: NO_STORE });
});
