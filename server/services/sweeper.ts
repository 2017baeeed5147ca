import type { AppContext } from "../context";
import { resumeFulfilment } from "./fulfilment";
import { releaseExpiredHolds } from "./holds";

let running = false;

/**
 * The periodic chores of the one store process (server.js runs this every 30 s): units held by
 * buyers who walked away go back on the shelf even when nobody checks out, and paid orders still
 * owed an e-mail or a label get them. A sweep slowed by a provider is never overlapped by the next.
 */
export async function sweep(ctx: AppContext): Promise<void> {
  if (running) return;
  running = true;
  try {
    await releaseExpiredHolds(ctx).catch((error: unknown) => console.error("Releasing expired holds failed:", error));
    await resumeFulfilment(ctx).catch((error: unknown) => console.error("Resuming order fulfilment failed:", error));
  } finally {
    running = false;
  }
}
