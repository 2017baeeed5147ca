import { http, HttpResponse } from "msw";
import { ServerClient } from "postmark";
import { Shippo } from "shippo";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { mockServer } from "../mocks/server";
import { STRIPE_API } from "../mocks/stripe";

// The rig itself: each vendor's own SDK is answered by msw, never by the network.
describe("vendor HTTP mocks", () => {
  it("answers the Stripe SDK", async () => {
    const stripe = new Stripe("sk_test_123");
    const balance = await stripe.balance.retrieve();
    expect(balance.object).toBe("balance");
  });

  it("lets a test replace a Stripe answer, including errors", async () => {
    mockServer.use(
      http.get(`${STRIPE_API}/v1/balance`, () =>
        HttpResponse.json({ error: { type: "invalid_request_error", message: "No such key" } }, { status: 401 }),
      ),
    );
    const stripe = new Stripe("sk_test_123", { maxNetworkRetries: 0 });
    await expect(stripe.balance.retrieve()).rejects.toThrow("No such key");
  });

  it("answers the Postmark SDK", async () => {
    const client = new ServerClient("server-token");
    const sent = await client.sendEmail({ From: "a@example.com", To: "b@example.com", Subject: "Hi", HtmlBody: "<p>Hi</p>" });
    expect(sent).toMatchObject({ To: "b@example.com", ErrorCode: 0 });
  });

  it("answers the Shippo SDK", async () => {
    const shippo = new Shippo({ apiKeyHeader: "ShippoToken shippo_test_123" });
    const accounts = await shippo.carrierAccounts.list({});
    expect(accounts.results).toEqual([]);
  });
});
