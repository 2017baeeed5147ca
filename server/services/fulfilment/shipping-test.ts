import type { ShippingTestResult } from "#server/contracts/admin-settings";
import { toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { Conflict, Invalid } from "#server/errors";
import { shippingFor, type Parcel, type ShippingAddress } from "#server/integrations/shipping";

/** The admin's test shipment: one 1 lb box (the spec's fixed package weight) to a fixed US address. */
export const TEST_PARCEL: Parcel = { weightLbs: 1, lengthIn: 12, widthIn: 9, heightIn: 6 };
export const TEST_ADDRESS: ShippingAddress = {
  name: "Shipping Test",
  street: "215 Clayton St",
  city: "San Francisco",
  state: "CA",
  zipCode: "94117",
  country: "US",
  phone: "+1 415 555 0100",
  email: "shipping-test@example.com",
};

/**
 * docs/spec.md §7 POST /api/admin/test-{shipping provider}: buys a label for the test parcel through the
 * configured shipping integration, cheapest rate, and reports it. Locally that is a generated PDF;
 * with Shippo it is a real transaction, so only a Shippo test token is accepted (a live token
 * would pay for a label).
 */
export async function testShippingLabel(ctx: AppContext): Promise<ShippingTestResult> {
  const key = ctx.config.shippo.apiKey;
  if (key && !key.startsWith("shippo_test_")) {
    throw new Conflict("The shipping test buys a label. Use a Shippo test token (shippo_test_…) so no postage is charged.");
  }
  const shipping = shippingFor(ctx);
  const [cheapest] = await shipping.quote(TEST_ADDRESS, TEST_PARCEL);
  if (!cheapest) throw new Invalid("The shipping provider returned no rates for the test address.");
  const label = await shipping.buyLabel({ orderId: 0, to: TEST_ADDRESS, parcel: TEST_PARCEL, methodKey: cheapest.key });
  return {
    message:
      shipping.mode === "shippo"
        ? `Shippo test label created with ${label.carrier} (${cheapest.description}).`
        : `Local test label generated with ${label.carrier} (${cheapest.description}). Set SHIPPO_API_KEY to test Shippo.`,
    details: { trackingNumber: label.trackingNumber, carrier: label.carrier, cost: toDollars(label.costCents), labelUrl: label.labelUrl },
  };
}
