import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as checkoutPage from "#app/routes/checkout";
import { refusedProcessOrder } from "#app/components/checkout/use-process-order";
import { useAppContextForTests } from "#server/boot";
import type { CheckoutActionData } from "#server/contracts/checkout-page";
import { resetCheckoutLimits } from "#server/services/checkout/checkout";
import { getSettingValue, setSetting } from "#server/services/store/settings";
import { updateWaitingRoom } from "#server/services/drop/waiting-room-admin";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

// Issue 22: with JavaScript, Process Order is the checkout form's own action posted by a fetcher
// (ENHANCED_FIELD), no longer POST /api/process-order. Each case here is asked of both doors: the
// shopper must not see a difference.
const ctx = createTestContext();
const IP = "203.0.113.9"; // runRoute's caller
const address = { street: "350 5th Ave", city: "New York", state: "NY", zipCode: "10001", country: "US" };
const customer = { email: "sam@example.com", name: "Sam Script", phone: "", ...address };
let productId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  productId = await addProduct(ctx, { name: "Script Tee", priceCents: 4000, inventory: 50 });
});

async function shopperWithBag(id = productId) {
  const jar = new CookieJar();
  expect((await api("POST", "/api/cart", { body: { productId: id, quantity: 1 }, jar, ip: IP })).status).toBe(201);
  return jar;
}

/** What the page's fetcher posts (use-process-order.ts). */
const fromScript = (jar: CookieJar, fields: Record<string, string> = {}) =>
  runRoute<CheckoutActionData>(checkoutPage.action, {
    path: "/checkout",
    form: { ...customer, shippingMethod: "usps-ground_saver", intent: "process", enhanced: "1", ...fields },
    jar,
  });

const fromRest = (jar: CookieJar, info: Partial<typeof customer> = {}, shippingMethod = "usps-ground_saver") =>
  api("POST", "/api/process-order", { jar, ip: IP, body: { customerInfo: { ...customer, ...info }, shippingMethod } });

/** Status and the words the shopper is shown, from either door. */
async function restSays(response: Response) {
  return { status: response.status, message: ((await response.json()) as { message: string }).message };
}
const scriptSays = (result: { status: number; data: CheckoutActionData }) => ({
  status: result.status,
  message: result.data.notice?.description,
});

const pendingOrders = async (paymentIntentId: string) =>
  ctx.db.selectFrom("orders").select(["status", "sessionId"]).where("paymentIntentId", "=", paymentIntentId).execute();

describe("Process Order posted by the page's script", () => {
  it("answers the held order as data, as POST /api/process-order answers it, and does not redirect", async () => {
    const jar = await shopperWithBag();
    const result = await fromScript(jar);
    expect(result.status).toBe(201);
    expect(result.headers.get("Location")).toBeNull();
    expect(result.headers.get("Cache-Control")).toBe("no-store");
    const order = result.data.order!;
    expect(order.clientSecret).toMatch(/^pi_local_/);
    expect(order.orderSummary).toMatchObject({ subtotal: 40, shipping: 5.95, total: 45.95 });
    expect(order.holdMsLeft).toBe(ctx.config.holdMinutes * 60_000);
    expect(await pendingOrders(order.paymentIntentId)).toEqual([{ status: "pending", sessionId: expect.any(String) }]);

    const rest = (await (await fromRest(await shopperWithBag())).json()) as Record<string, unknown>;
    expect(Object.keys(order).sort()).toEqual([...Object.keys(rest), "holdMsLeft"].sort());
  });

  it("refuses a method the rates no longer offer in the service's words, with the field marked", async () => {
    const jar = await shopperWithBag();
    const script = await fromScript(jar, { shippingMethod: "dhl-express_worldwide" });
    expect(script.data.errors.shippingMethod).toBeDefined();
    expect(scriptSays(script)).toEqual(await restSays(await fromRest(jar, {}, "dhl-express_worldwide")));
    expect(script.status).toBe(400);
  });

  it("refuses missing details with the spec's message", async () => {
    const jar = await shopperWithBag();
    const script = await fromScript(jar, { city: "" });
    expect(script.status).toBe(400);
    expect(script.data.notice).toMatchObject({
      title: "Missing information",
      description: "Please fill in all required fields and select a shipping method.",
    });
    expect(Object.keys(script.data.errors)).toEqual(["city"]);
  });

  it("says sold out as the REST door does (409), and an emptied bag as it does (400), without a redirect", async () => {
    const lastOne = await addProduct(ctx, { name: "Last Script Cap", priceCents: 2000, inventory: 1 });
    const [first, second, third] = [await shopperWithBag(lastOne), await shopperWithBag(lastOne), await shopperWithBag(lastOne)];
    expect((await fromScript(first)).status).toBe(201);
    const script = await fromScript(second);
    expect(scriptSays(script)).toEqual({ status: 409, message: "Sorry, Last Script Cap just sold out." });
    expect(scriptSays(script)).toEqual(await restSays(await fromRest(third)));

    const emptied = await shopperWithBag();
    expect((await api("DELETE", "/api/cart", { jar: emptied })).status).toBe(200);
    const empty = await fromScript(emptied);
    expect(empty.headers.get("Location")).toBeNull();
    expect(scriptSays(empty)).toEqual(await restSays(await fromRest(emptied)));
    expect(scriptSays(empty)).toEqual({ status: 400, message: "Add some items to your cart before checking out." });
  });

  it("shares the per-address limit with the REST door and says so in the same words", async () => {
    await resetCheckoutLimits(ctx);
    try {
      const jar = await shopperWithBag();
      // Refused by the service after the limit counted them: an address it cannot ship to.
      for (let i = 0; i < 60; i++) expect((await fromRest(jar, { zipCode: "nope" })).status).toBe(400);
      const script = await fromScript(jar);
      expect(script.status).toBe(429);
      expect(script.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(script.data.notice?.description).toMatch(/^Too many checkout attempts from your network\./);
      expect(scriptSays(script)).toEqual(await restSays(await fromRest(jar)));
    } finally {
      await resetCheckoutLimits(ctx);
    }
  });

  it("a press sent again starts over: one order held for the bag, as with the REST door", async () => {
    const jar = await shopperWithBag();
    const first = (await fromScript(jar)).data.order!;
    const second = (await fromScript(jar)).data.order!;
    expect(second.paymentIntentId).not.toBe(first.paymentIntentId);
    const [session] = (await pendingOrders(second.paymentIntentId)).map((o) => o.sessionId);
    const held = await ctx.db.selectFrom("orders").select("id").where("sessionId", "=", session!).where("status", "=", "pending").execute();
    expect(held).toHaveLength(1);
  });
});

describe("in the waiting room's window, without a pass", () => {
  let countdown = "";
  beforeAll(async () => {
    countdown = await getSettingValue(ctx, "countdown_date");
  });
  afterAll(async () => {
    await setSetting(ctx, "countdown_date", countdown || new Date(0).toISOString());
    await updateWaitingRoom(ctx, { enabled: false });
  });

  it("is refused with the REST door's 429 and message, which the page's script shows as its notice", async () => {
    const jar = await shopperWithBag();
    await setSetting(ctx, "countdown_date", new Date(ctx.clock.now().getTime() + 5 * 60_000).toISOString());
    await updateWaitingRoom(ctx, { enabled: true });
    const rest = await fromRest(jar);
    expect(rest.status).toBe(429);
    const restBody = (await rest.json()) as { message: string };
    const script = await fromScript(jar);
    expect(script.status).toBe(429);
    // Thrown by the gate: single fetch hands it to the clientAction as an error response.
    const shown = refusedProcessOrder(new ErrorResponse(429, "", script.data));
    expect(shown.notice).toEqual({ kind: "error", title: "Error", description: restBody.message });
    expect(shown.order).toBeNull();
    expect(refusedProcessOrder(new TypeError("Failed to fetch")).notice?.description).toBe("Failed to process order. Please try again.");
  });
});
