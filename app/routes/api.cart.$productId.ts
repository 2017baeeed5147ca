import { CART_MESSAGES, setQuantitySchema } from "../../server/contracts/cart";
import { productIdParam } from "../../server/contracts/catalog";
import { NotFound } from "../../server/errors";
import { cartSessionIdOf } from "../../server/http/cart-session";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { removeFromCart, setQuantity } from "../../server/services/cart";

const ALLOWED = ["PATCH", "DELETE"];

/** PATCH `{ quantity }` (below 1 removes) and DELETE one line; both answer with the updated cart. */
export const action = rest(async ({ request, params, ctx }) => {
  if (!ALLOWED.includes(request.method)) return methodNotAllowed(ALLOWED);
  // A bad body is reported before a missing line: the caller can fix the one, not the other.
  const body = request.method === "PATCH" ? await parseJsonBody(request, setQuantitySchema) : null;
  const productId = productIdParam.safeParse(params.productId);
  const sessionId = await cartSessionIdOf(ctx, request);
  if (!productId.success || !sessionId) throw new NotFound(CART_MESSAGES.notInCart);
  const cart = body
    ? await setQuantity(ctx, sessionId, productId.data, body.quantity)
    : await removeFromCart(ctx, sessionId, productId.data);
  return Response.json(cart, { headers: { "Cache-Control": "private, no-store" } });
});

export const loader = () => methodNotAllowed(ALLOWED);
