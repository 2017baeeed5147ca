import { addToCartSchema } from "../../server/contracts/cart";
import { cartSessionIdOf, ensureCartSession } from "../../server/http/cart-session";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { addToCart, clearCart, getCart } from "../../server/services/cart";

// A bag is personal: never let a shared cache keep one.
const PRIVATE = { "Cache-Control": "private, no-store" };

/** GET /api/cart: `{ cartItems, totalPrice, count }` for this browser's bag. */
export const loader = rest(async ({ request, ctx }) =>
  Response.json(await getCart(ctx, await cartSessionIdOf(ctx, request)), { headers: PRIVATE }),
);

/** POST adds `{ productId, quantity }` (201 for a new line, 200 for more of one); DELETE empties. */
export const action = rest(async ({ request, ctx }) => {
  if (request.method === "POST") {
    const input = await parseJsonBody(request, addToCartSchema);
    const session = await ensureCartSession(ctx, request);
    const { cart, created } = await addToCart(ctx, session.id, input.productId, input.quantity);
    const headers = new Headers(PRIVATE);
    if (session.setCookie) headers.append("Set-Cookie", session.setCookie);
    return Response.json(cart, { status: created ? 201 : 200, headers });
  }
  if (request.method === "DELETE") {
    return Response.json(await clearCart(ctx, await cartSessionIdOf(ctx, request)), { headers: PRIVATE });
  }
  return methodNotAllowed(["GET", "POST", "DELETE"]);
});
