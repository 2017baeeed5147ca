import type { RequestHead } from "#server/http/requests/request-head";
import { jsonAnswer } from "#server/http/json-answer";
import { BOT_FIELD } from "#server/contracts/bots";
import { refuseFilledHoneypot } from "#server/services/drop/bots";
import { CART_MESSAGES, addToCartSchema, lineQuerySchema, setQuantitySchema } from "#server/contracts/cart";
import { productIdParam } from "#server/contracts/catalog";
import type { AppContext } from "#server/context";
import { Invalid, NotFound } from "#server/errors";
import { cartSessionIdOf, ensureCartSession } from "#server/http/cart-session";
import { addToCart, clearCart, getCart, removeFromCart, setQuantity } from "#server/services/cart/cart";
import { route } from "#server/api/route";

/**
 * The line a PATCH or DELETE /api/cart/{productId}?size=&color= names, in this browser's bag (the
 * size and colour are needed only when the bag holds several lines of the product).
 */
async function lineOf(ctx: AppContext, request: RequestHead, param: string | undefined) {
  const url = new URL(request.url);
  const name = lineQuerySchema.safeParse({ size: url.searchParams.get("size"), color: url.searchParams.get("color") });
  if (!name.success) throw Invalid.fromZod(name.error);
  const productId = productIdParam.safeParse(param);
  const sessionId = await cartSessionIdOf(ctx, request);
  if (!productId.success || !sessionId) throw new NotFound(CART_MESSAGES.notInCart);
  return { sessionId, productId: productId.data, name: name.data };
}

export const cartRoutes = [
  /** GET /api/cart: `{ cartItems, totalPrice, count }` for this browser's bag. */
  route({
    method: "GET",
    path: "/api/cart",
    guard: "public",
    personal: true,
    handle: async ({ request, ctx }) => getCart(ctx, await cartSessionIdOf(ctx, request)),
  }),

  /**
   * POST /api/cart adds `{ productId, quantity, size?, color? }` (201 for a new line, 200 for more
   * of one). 400 "Please choose a size." for a sized product without one; 409 when the size is sold out.
   */
  route({
    method: "POST",
    path: "/api/cart",
    guard: "public",
    input: addToCartSchema,
    needsPass: true,
    personal: true,
    handle: async ({ request, input, ctx }) => {
      refuseFilledHoneypot(input[BOT_FIELD]);
      const session = await ensureCartSession(ctx, request);
      const { cart, created } = await addToCart(ctx, session.id, input.productId, input.quantity, {
        size: input.size,
        color: input.color,
      });
      const headers: [string, string][] = session.setCookie ? [["Set-Cookie", session.setCookie]] : [];
      return jsonAnswer(cart, { status: created ? 201 : 200, headers });
    },
  }),

  /** DELETE /api/cart empties the bag. */
  route({
    method: "DELETE",
    path: "/api/cart",
    guard: "public",
    personal: true,
    handle: async ({ request, ctx }) => clearCart(ctx, await cartSessionIdOf(ctx, request)),
  }),

  /**
   * PATCH /api/cart/{productId} `{ quantity }` (below 1 removes) → the updated cart. A bad body is
   * reported before a missing line: the caller can fix the one, not the other.
   */
  route({
    method: "PATCH",
    path: "/api/cart/:productId",
    guard: "public",
    input: setQuantitySchema,
    personal: true,
    handle: async ({ request, params, input, ctx }) => {
      const { sessionId, productId, name } = await lineOf(ctx, request, params.productId);
      return setQuantity(ctx, sessionId, productId, input.quantity, name);
    },
  }),

  /** DELETE /api/cart/{productId}: one line out → the updated cart. */
  route({
    method: "DELETE",
    path: "/api/cart/:productId",
    guard: "public",
    personal: true,
    handle: async ({ request, params, ctx }) => {
      const { sessionId, productId, name } = await lineOf(ctx, request, params.productId);
      return removeFromCart(ctx, sessionId, productId, name);
    },
  }),
];
