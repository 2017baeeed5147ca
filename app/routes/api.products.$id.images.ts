import { CATALOG_MESSAGES, productIdParam } from "../../server/contracts/catalog";
import { NotFound } from "../../server/errors";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { listProductImages } from "../../server/services/catalog";

/** GET /api/products/{id}/images: `{ productId, images }`; 404 for a product shoppers cannot see. */
export const loader = rest(async ({ ctx, params }) => {
  const id = productIdParam.safeParse(params.id);
  if (!id.success) throw new NotFound(CATALOG_MESSAGES.notFound);
  return Response.json(await listProductImages(ctx, id.data));
});

export const action = () => methodNotAllowed(["GET"]);
