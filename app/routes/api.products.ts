import { listVisibleProducts } from "../../server/services/catalog";
import { methodNotAllowed, rest } from "../../server/http/rest";

/** GET /api/products: the visible, released products with public fields only, as an array. */
export const loader = rest(async ({ ctx }) => Response.json(await listVisibleProducts(ctx)));

export const action = () => methodNotAllowed(["GET"]);
