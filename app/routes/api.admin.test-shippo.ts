import { requireAdminApi } from "../../server/http/auth";
import { jsonError, methodNotAllowed, rest } from "../../server/http/rest";
import { runShippingTest, ShippingTestFailed } from "../../server/services/account";

/**
 * POST /api/admin/test-shippo → `{ message, details: { trackingNumber, carrier, cost, labelUrl } }`:
 * a test label for a fixed parcel through the shipping integration (Shippo with a test token, or
 * the local label maker). The path carries the provider's name, as spec §7 has it. The provider
 * failing is a 502 with its message; a live Shippo token (which would buy postage) a 409.
 */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  try {
    return Response.json(await runShippingTest(ctx), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof ShippingTestFailed) return jsonError(502, error.message);
    throw error;
  }
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});
