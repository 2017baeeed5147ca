import type { CartView } from "./cart";

/** A country the store ships to, as the checkout's picker shows it. */
export interface Country {
  code: string;
  name: string;
}

/** What /checkout's page gets: the bag to summarise, where it can ship, and how it will be paid. */
export interface CheckoutLoaderData {
  cart: CartView;
  countries: Country[];
  payment: { mode: "local" } | { mode: "stripe"; publishableKey: string };
}
