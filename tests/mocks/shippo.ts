import { http, HttpResponse } from "msw";

/** Shippo's API as the `shippo` v2 SDK reaches it. */
export const SHIPPO_API = "https://api.goshippo.com";

export const shippoHandlers = [
  http.get(`${SHIPPO_API}/carrier_accounts`, () =>
    HttpResponse.json({ next: null, previous: null, results: [] }),
  ),
];
