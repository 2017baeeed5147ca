// Loaded into a store process with `node --import tsx --import ./tests/e2e/support/fake-stripe.ts`:
// the store's Stripe SDK talks to the msw handlers of tests/mocks/stripe.ts (nothing leaves the
// machine), and a small server on FAKE_STRIPE_PORT plays Stripe for the browser: the hosted
// Checkout page, and the one call the Stripe.js stand-in makes (tests/e2e/support/stripe-js-stub.js:
// confirming a PaymentIntent with its client secret, as the Payment Element does).
import http from "node:http";
import { setupServer } from "msw/node";
import { stripeHandlers, stripeState } from "../../mocks/stripe";

setupServer(...stripeHandlers).listen({ onUnhandledRequest: "bypass" });

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

http
  .createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://fake-stripe");
    const confirm = url.pathname.match(/^\/v1\/payment_intents\/(pi_\w+)\/confirm$/)?.[1];
    if (confirm && request.method === "POST") {
      confirmIntent(confirm, request, response);
      return;
    }
    const id = url.pathname.match(/^\/c\/pay\/(cs_test_[0-9a-f]+)$/)?.[1];
    const session = id ? stripeState.sessions.get(id) : undefined;
    if (!session) {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("No such checkout session");
      return;
    }
    if (request.method === "POST") {
      stripeState.paySession(session.id);
      response.writeHead(303, { Location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) }).end();
      return;
    }
    const amount = `$${(session.amount_total / 100).toFixed(2)}`;
    response
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><title>Stripe Checkout (test)</title><h1>Pay ${escape(amount)}</h1>` +
          `<p data-testid="stripe-email">${escape(session.customer_email ?? "")}</p>` +
          `<form method="post"><button>Pay</button></form>` +
          (session.cancel_url ? `<a href="${escape(session.cancel_url)}">Back</a>` : ""),
      );
  })
  .listen(Number(process.env.FAKE_STRIPE_PORT), "127.0.0.1");

/**
 * Stripe.js's confirm call from the buyer's page: the publishable key and the intent's client
 * secret, form-encoded (a simple request, so no preflight); the test card always works here.
 */
function confirmIntent(id: string, request: http.IncomingMessage, response: http.ServerResponse) {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    const form = new URLSearchParams(body);
    const intent = stripeState.intents.get(id);
    const headers = { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" };
    if (!intent || form.get("client_secret") !== intent.client_secret || !form.get("key")?.startsWith("pk_test_")) {
      const message = `No such payment_intent: '${id}'`;
      response.writeHead(404, headers).end(JSON.stringify({ error: { type: "invalid_request_error", code: "resource_missing", message } }));
      return;
    }
    response.writeHead(200, headers).end(JSON.stringify(stripeState.succeed(id)));
  });
}
