import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "../boot";
import { waitingRoomAdmin } from "../services/waiting-room-admin";
import { requireAdminPage } from "./auth";

/** /admin/drop, the waiting room's panel. Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function adminDropLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { room: await waitingRoomAdmin(ctx), loadedAt: Date.now() };
}
