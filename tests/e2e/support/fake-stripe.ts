// Loaded into a store process with `node --import tsx --import ./tests/e2e/support/fake-stripe.ts`:
// the store's Stripe SDK talks to the msw handlers of tests/mocks/stripe.ts (nothing leaves the
// machine), and a small page on FAKE_STRIPE_PORT plays Stripe's hosted Checkout for the browser.
import http from "node:http";
import { setupServer } from "msw/node";
import { stripeHandlers, stripeState } from "../../mocks/stripe";

setupServer(...stripeHandlers).listen({ onUnhandledRequest: "bypass" });

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

http
  .createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://fake-stripe");
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
