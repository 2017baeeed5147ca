import sharp from "sharp";
import Stripe from "stripe";

/** A product image upload as an admin's browser posts it: a small PNG in a multipart form. */
export async function imageUpload(
  cookie: string,
  background: string,
): Promise<{ headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
  const encoded = new Response(form);
  return {
    headers: { "Content-Type": encoded.headers.get("Content-Type")!, Cookie: cookie },
    body: new Uint8Array(await encoded.arrayBuffer()),
  };
}

/** A Stripe event as Stripe sends it: its raw JSON and the signature made with the webhook secret. */
export function signedStripeEvent(id: string, secretKey: string, webhookSecret: string): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    id,
    object: "event",
    type: "payment_intent.created",
    data: { object: { id: "pi_elsewhere", object: "payment_intent" } },
  });
  const signature = new Stripe(secretKey).webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret });
  return { headers: { "Content-Type": "application/json", "Stripe-Signature": signature }, body };
}
