import { http, HttpResponse } from "msw";

/** Stripe's API as the `stripe` SDK reaches it. Tests override these with `mockServer.use(...)`. */
export const STRIPE_API = "https://api.stripe.com";

export const stripeHandlers = [
  http.get(`${STRIPE_API}/v1/balance`, () =>
    HttpResponse.json({ object: "balance", livemode: false, available: [{ amount: 0, currency: "usd" }], pending: [] }),
  ),
];
