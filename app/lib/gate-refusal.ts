import { isRouteErrorResponse } from "@remix-run/react";
import { CART_MESSAGES, type AddToBagData, type CartFormData } from "#server/contracts/cart-view";
import { WAITING_ROOM_MESSAGES, WAITING_ROOM_URL } from "#server/contracts/waiting-room-messages";

/**
 * The waiting room's 429 to a purchase without a pass (mostly one that lapsed while the shopper
 * browsed), as a clientAction catches it from `serverAction`: its words and the way back to the
 * line. null for anything else, which the route's error page answers as before.
 */
export function gateRefusal(error: unknown): { message: string; waitingRoomUrl: string } | null {
  if (!isRouteErrorResponse(error) || error.status !== 429) return null;
  const body: unknown = error.data;
  const message = typeof body === "object" && body !== null ? (body as { message?: unknown }).message : null;
  // The way back is the store's own line, whatever the body says.
  return { message: typeof message === "string" && message ? message : WAITING_ROOM_MESSAGES.busy, waitingRoomUrl: WAITING_ROOM_URL };
}

/** Add To Bag's answer to the gate's refusal: the notice beside the button, with a link to the line. */
export function refusedAddToBag(error: unknown): AddToBagData {
  const refusal = gateRefusal(error);
  if (!refusal) throw error;
  return {
    ok: false,
    notice: { kind: "error", title: CART_MESSAGES.errorTitle, description: refusal.message },
    waitingRoomUrl: refusal.waitingRoomUrl,
  };
}

/**
 * The bag's plus, minus and remove refused by the gate: the toast the cart fetchers raise, in the
 * line's words, with a link to the line. No bag comes with it (the change never reached it).
 */
export function refusedCartChange(error: unknown): CartFormData {
  const refusal = gateRefusal(error);
  if (!refusal) throw error;
  return {
    ok: false,
    intent: null,
    cart: null,
    notice: { kind: "error", title: CART_MESSAGES.errorTitle, description: refusal.message },
    waitingRoomUrl: refusal.waitingRoomUrl,
  };
}
