import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { waitingRoomAdmin } from "#server/services/drop/waiting-room-admin";
import { requireAdminPage } from "#server/http/auth";

/** /admin/drop, the waiting room's panel. Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function adminDropLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { room: await waitingRoomAdmin(ctx), loadedAt: Date.now() };
}
