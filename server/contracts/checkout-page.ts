import type { ActionNotice } from "./cart-view";
import type { OrderSummary } from "./checkout";
import type { CheckoutValues, RateView, TaxView } from "./checkout-form";

/** A country the store ships to, as the checkout's picker shows it. */
export interface Country {
  code: string;
  name: string;
}

/**
 * One line of the bag as the checkout's summary shows it, and nothing else: no line id, stock or
 * description, so every shopper with the same bag gets the same data (and the same page).
 */
export interface CheckoutLine {
  productId: number;
  /** The size and colour chosen; null for a product without sizes / colours (decision 0045). */
  size: string | null;
  color: string | null;
  name: string;
  imageUrl: string | null;
  srcSet: string | null;
  /** Discounted price of one unit, dollars. */
  unitPrice: number;
  /** The price before the discount, when there is one. */
  originalPrice: number | null;
  quantity: number;
  total: number;
  /** Why the line cannot be bought as it is (sold out meanwhile, say); null when it can. */
  notice: string | null;
}

export interface CheckoutBag {
  lines: CheckoutLine[];
  /** Sum of the lines that can be bought, dollars. */
  subtotal: number;
}

/** What /checkout's page gets: the bag to summarise, where it can ship, and how it will be paid. */
export interface CheckoutLoaderData {
  bag: CheckoutBag;
  countries: Country[];
  payment: { mode: "test" } | { mode: "stripe"; publishableKey: string };
}

/**
 * Process Order's answer to the page's own script (a fetcher): what POST /api/process-order
 * answers, and how long the hold has left, so the countdown runs on the browser's clock however
 * far off it is from the server's.
 */
export interface HeldOrder {
  clientSecret: string;
  paymentIntentId: string;
  orderSummary: OrderSummary;
  holdMsLeft: number;
}

/**
 * What the checkout's action answers. Without JavaScript the form is re-rendered from it; with
 * it, `order` is the held order, or `notice` (and `errors`) why not.
 */
export interface CheckoutActionData {
  values: CheckoutValues;
  /** null: not quoted (the address is incomplete, or quoting failed). */
  rates: RateView[] | null;
  shippingMethod: string;
  tax: TaxView;
  errors: Record<string, string[]>;
  notice: ActionNotice | null;
  order: HeldOrder | null;
}
