import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { shopperContext } from "#server/http/gate/early-access";
import { BOT_FIELD } from "#server/contracts/bots";
import { refuseFilledHoneypot } from "#server/services/drop/bots";
import {
  type ActionNotice,
  type AddToBagData,
  CART_MESSAGES,
  type CartFormData,
  cartFormSchema,
  lineQuerySchema,
  type CartIntent,
  EMPTY_CART,
  ENHANCED_FIELD,
} from "#server/contracts/cart";
import { CATALOG_MESSAGES, productIdParam } from "#server/contracts/catalog";
import { choiceLabel } from "#server/contracts/sizes-view";
import type { AppContext } from "#server/context";
import { DomainError, Invalid, NotFound } from "#server/errors";
import { addToCart, cartPageOf, decrementItem, getCart, incrementItem, removeFromCart } from "#server/services/cart/cart";
import { cartSessionIdOf, ensureCartSession } from "#server/http/cart-session";
import { requestBag } from "#server/http/request-bag";
import { requirePassForPage } from "#server/http/gate/waiting-room-gate";
import { isConnectionLost } from "#server/http/store-busy";
import { redirectWithToast } from "#server/http/flash";
import { statusOf } from "#server/http/error-status";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";
import { readForm } from "#server/http/requests/request-body";
import { logError } from "#server/observability/log";

/**
 * The page doors of the cart: real forms that work without JavaScript, and that fetchers post
 * to with it. A fetcher's post (it carries ENHANCED_FIELD) gets data back: its notice becomes a
 * toast. A plain browser post is redirected back (post/redirect/get) with the notice in a flash
 * cookie: the redirect's request carries a bag cookie the post may just have set, so the badge
 * counts it, and a reload does not post again.
 */
function failure(error: unknown, fallback: string): { notice: ActionNotice; status: number } {
  // The database out of reach for a moment: thrown on, to the 503 page that says to try again (decision 0041).
  if (isConnectionLost(error)) throw error;
  if (error instanceof DomainError) {
    return { notice: { kind: "error", title: CART_MESSAGES.errorTitle, description: error.message }, status: statusOf(error) };
  }
  logError("The request failed", error);
  return { notice: { kind: "error", title: CART_MESSAGES.errorTitle, description: fallback }, status: 500 };
}

const isEnhanced = (form: FormData) => form.get(ENHANCED_FIELD) === "1";

function back(ctx: AppContext, request: Request, to: string, notice: ActionNotice | null, headers: HeadersInit = {}) {
  return notice ? redirectWithToast(ctx, request, to, notice, headers) : redirect(to, { headers });
}

/** /cart: the full bag, behind the waiting room's gate like the store's pages. */
export async function cartPageLoader({ request, context }: LoaderFunctionArgs) {
  await requirePassForPage(request, context);
  const ctx = await shopperContext(await getAppContext(), request);
  // The same read the root loader's badge counts (request-bag.ts).
  return { cart: cartPageOf(await requestBag(ctx, request, context)) };
}

/** "Add To Bag" on a product page: one unit of the product in the URL. */
export async function addToBagAction({ request, params }: ActionFunctionArgs) {
  const ctx = await shopperContext(await getAppContext(), request);
  const form = await readForm(request);
  const enhanced = isEnhanced(form);
  const page = `/store/${encodeURIComponent(params.productId ?? "")}`;
  try {
    refuseFilledHoneypot(form.get(BOT_FIELD));
    const id = productIdParam.safeParse(params.productId);
    if (!id.success) throw new NotFound(CATALOG_MESSAGES.notFound);
    const session = await ensureCartSession(ctx, request);
    const choice = lineQuerySchema.safeParse({ size: form.get("size"), color: form.get("color") });
    if (!choice.success) throw Invalid.fromZod(choice.error);
    const { cart } = await addToCart(ctx, session.id, id.data, 1, choice.data);
    const line = cart.cartItems.find((l) => l.productId === id.data);
    const chosen = line ? choiceLabel(line.size, line.color) : "";
    const name = line ? `${line.product.name}${chosen ? ` (${chosen})` : ""}` : "The item";
    const headers: HeadersInit = session.setCookie ? { "Set-Cookie": session.setCookie } : {};
    const notice: ActionNotice = { kind: "success", title: "Added to Bag", description: `${name} is in your bag.` };
    if (!enhanced) return back(ctx, request, page, notice, headers);
    return data<AddToBagData>({ ok: true, notice }, { headers });
  } catch (error) {
    const { notice, status } = failure(error, CART_MESSAGES.addFailed);
    const field = choiceFieldOf(error);
    // A choice to make again is answered on the page itself, beside its picker (as a form's
    // field error is): after a redirect it could only be a toast at the top of the page.
    if (!enhanced && field === undefined) return back(ctx, request, page, notice);
    // The page answered to one browser's post is that browser's alone.
    return data<AddToBagData>({ ok: false, notice, ...(field ? { field } : {}) }, { status, headers: enhanced ? {} : NO_STORE_HEADERS });
  }
}

/** Which picker a refusal is about: a size or a colour to choose (again), named by the service. */
function choiceFieldOf(error: unknown): AddToBagData["field"] {
  if (!(error instanceof DomainError)) return undefined;
  if (error.fieldErrors.size) return "size";
  if (error.fieldErrors.color) return "color";
  return undefined;
}

const FALLBACK: Record<CartIntent, string> = {
  increment: CART_MESSAGES.updateFailed,
  decrement: CART_MESSAGES.updateFailed,
  remove: CART_MESSAGES.removeFailed,
};

/** The plus, minus and remove buttons of /cart and of the dropdown (intent + productId). */
export async function cartFormAction({ request }: ActionFunctionArgs) {
  const ctx = await shopperContext(await getAppContext(), request);
  const sessionId = await cartSessionIdOf(ctx, request);
  const form = await readForm(request);
  const enhanced = isEnhanced(form);
  const parsed = cartFormSchema.safeParse(Object.fromEntries(form));
  const intent = parsed.success ? parsed.data.intent : null;
  try {
    refuseFilledHoneypot(form.get(BOT_FIELD));
    if (!parsed.success) throw new Invalid(parsed.error.issues[0]?.message ?? FALLBACK.increment);
    if (!sessionId) throw new NotFound(CART_MESSAGES.notInCart);
    const { productId, size, color } = parsed.data;
    const line = { size, color };
    const cart =
      intent === "increment"
        ? await incrementItem(ctx, sessionId, productId, line)
        : intent === "decrement"
          ? await decrementItem(ctx, sessionId, productId, line)
          : await removeFromCart(ctx, sessionId, productId, line);
    if (!enhanced) return back(ctx, request, "/cart", null);
    return data<CartFormData>({ ok: true, intent, cart, notice: null });
  } catch (error) {
    const { notice, status } = failure(error, FALLBACK[intent ?? "increment"]);
    if (!enhanced) return back(ctx, request, "/cart", notice);
    const cart = await getCart(ctx, sessionId).catch(() => structuredClone(EMPTY_CART));
    return data<CartFormData>({ ok: false, intent, cart, notice }, { status });
  }
}
