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
