import { CookieJar } from "./http";

/** One request a shopper sent: what the store's metrics should have counted. */
export interface Sent {
  path: string;
  status: number;
}

const customerInfo = (n: number) => ({
  email: `rush${n}@example.com`,
  name: `Rush Buyer ${n}`,
  phone: "",
  street: "5 Elm St",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
});

/**
 * One shopper against a built store over HTTP: bag one unit, Process Order, pay with the test card.
 * Returns "paid", "sold out" or what went wrong, and records every request it sent in `sent`.
 */
export async function shopOnce(baseUrl: string, productId: number, n: number, sent: Sent[] = []): Promise<string> {
  const jar = new CookieJar();
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: jar.header() },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    jar.store(response);
    sent.push({ path, status: response.status });
    return response;
  };
  const added = await post("/api/cart", { productId, quantity: 1 });
  if (added.status === 409) return "sold out";
  if (added.status !== 201) return `cart ${added.status}: ${await added.text()}`;
  const processed = await post("/api/process-order", { customerInfo: customerInfo(n), shippingMethod: "usps-ground_saver" });
  if (processed.status === 409) return "sold out";
  if (processed.status !== 201) return `process-order ${processed.status}: ${await processed.text()}`;
  const { clientSecret } = (await processed.json()) as { clientSecret: string };
  const paid = await post("/api/local-payments/confirm", { clientSecret, cardNumber: "4242 4242 4242 4242" });
  const outcome = (await paid.json()) as { status?: string };
  return outcome.status === "paid" ? "paid" : `confirm ${paid.status}: ${JSON.stringify(outcome)}`;
}

export const rushCustomerEmail = (n: number) => customerInfo(n).email;
