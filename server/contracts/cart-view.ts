/*
 * The bag's shapes, messages and helpers without zod (decision 0029): the header's dropdown and the
 * bag page use them on every storefront page, and must not pull in the schema library.
 * cart.ts (the schemas) re-exports all of it.
 */
import { quantityCap } from "./limits";

export const CART_MESSAGES = {
  quantity: "Quantity must be a whole number of at least 1",
  quantityWhole: "Quantity must be a whole number",
  productId: "Product id must be a positive whole number",
  comingSoon: "This product is coming soon and can't be added to the bag yet.",
  soldOut: "This product is sold out.",
  onlyLeft: (left: number) => `Only ${left} left in stock.`,
  notInCart: "This item is not in your bag.",
  lineComingSoon: "Coming soon: this item can't be bought yet.",
  // docs/spec.md §8: the toast title and the defaults when the server gives no message.
  errorTitle: "Error",
  addFailed: "Failed to add item to cart",
  updateFailed: "Failed to update cart item",
  removeFailed: "Failed to remove item from cart",
  clearFailed: "Failed to clear cart",
} as const;

/**
 * Present in a cart form only once the page is hydrated: the action answers such a post (made by
 * a fetcher) with data, and a plain browser post with a redirect, so a reload never re-posts and
 * the badge counts a bag the same request just created.
 */
export const ENHANCED_FIELD = "enhanced";

/** What a page action tells the shopper: inline without JavaScript, as a toast with it. */
export interface ActionNotice {
  kind: "success" | "error";
  title: string;
  description: string;
}

/** The buttons of the cart view and the dropdown, posted to /cart as real forms. */
export const CART_INTENTS = ["increment", "decrement", "remove"] as const;
export type CartIntent = (typeof CART_INTENTS)[number];
/** The product as a cart line carries it (docs/spec.md §3 cart_items), in dollars. */
export interface CartProduct {
  name: string;
  price: number;
  discountedPrice: number;
  imageUrl: string | null;
  srcSet: string | null;
  discountPercent: number;
  availableColors: string[];
  isVisible: boolean;
  isComingSoon: boolean;
  releaseDate: string | null;
  inventory: number;
  description: string;
  promoCode: string | null;
  /** Units one customer may buy; the plus button stops there (decision 0020). */
  maxPerCustomer: number | null;
}

export interface CartLine {
  id: number;
  productId: number;
  /**
   * The size and colour of the line; null for a product without sizes / colours. One line per
   * product, size and colour. For a sized (or per-colour) line `product.inventory` is the stock of
   * that size (and colour): what the line can grow to (decision 0045).
   */
  size: string | null;
  color: string | null;
  quantity: number;
  product: CartProduct;
  /** Discounted price of one unit, dollars. */
  unitPrice: number;
  /** unitPrice × quantity, dollars. Counts towards totalPrice only when `available`. */
  lineTotal: number;
  /** False when the product turned coming soon, sold out, or below this quantity since it was added. */
  available: boolean;
  /** Why the line is not available, for the shopper; null when it is. */
  notice: string | null;
}

/** GET /api/cart, and what every cart-changing call answers with. */
export interface CartView {
  cartItems: CartLine[];
  /** Sum of the available lines' totals, dollars. */
  totalPrice: number;
  /** Units in the bag: the badge. */
  count: number;
}

export const EMPTY_CART: CartView = { cartItems: [], totalPrice: 0, count: 0 };

/**
 * One line as the bag's rows show it (the /cart page, the dropdown), and nothing else: no line id,
 * stock count or description, so every shopper with the same bag gets the same /cart page.
 */
export interface CartRow {
  productId: number;
  size: string | null;
  color: string | null;
  quantity: number;
  product: Pick<CartProduct, "name" | "price" | "imageUrl" | "srcSet" | "discountPercent" | "maxPerCustomer">;
  unitPrice: number;
  lineTotal: number;
  available: boolean;
  notice: string | null;
  /** The plus button: one more unit is on the shelf and within the per-customer limit. */
  canAddMore: boolean;
}

/** What /cart's page gets. */
export interface CartPageView {
  rows: CartRow[];
  totalPrice: number;
  count: number;
}

export function cartRowOf(line: CartLine): CartRow {
  const { name, price, imageUrl, srcSet, discountPercent, maxPerCustomer } = line.product;
  return {
    productId: line.productId,
    size: line.size,
    color: line.color,
    quantity: line.quantity,
    product: { name, price, imageUrl, srcSet, discountPercent, maxPerCustomer },
    unitPrice: line.unitPrice,
    lineTotal: line.lineTotal,
    available: line.available,
    notice: line.notice,
    canAddMore: line.quantity < quantityCap(line.product),
  };
}

/** What "Add To Bag" answers a fetcher with (a plain browser post gets a redirect instead). */
export interface AddToBagData {
  ok: boolean;
  notice: ActionNotice;
  /** The choice the refusal is about ("Please choose a size."): shown beside that picker. */
  field?: "size" | "color";
  /** The waiting room's refusal (a pass that lapsed): the line to join again, linked beside the notice. */
  waitingRoomUrl?: string;
}

/** What /cart's plus, minus and remove buttons answer a fetcher with. */
export interface CartFormData {
  ok: boolean;
  intent: CartIntent | null;
  /**
   * The bag after the change (or as it is, after a failure), so a dropdown need not ask again; null
   * when the change never reached the bag (the waiting room refused it).
   */
  cart: CartView | null;
  notice: ActionNotice | null;
  /** The waiting room's refusal (a pass that lapsed): the line to join again, linked in the toast. */
  waitingRoomUrl?: string;
}
