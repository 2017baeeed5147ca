import type { AppContext } from "../context";
import { resumeFulfilment } from "./fulfilment";
import { releaseExpiredHolds } from "./holds";
import { removeUnusedMedia } from "./media-uploads";
import { removeAbandonedImages } from "./product-images";
import { deleteExpiredSessions } from "./sessions";
import { confirmStrandedPayments } from "./stranded-payments";

let running = false;
let mediaSweptAt = 0;
const MEDIA_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * The periodic chores of the one store process (server.js runs this every 30 s): units held by
 * buyers who walked away go back on the shelf even when nobody checks out, payments nobody
 * confirmed (no webhook, a closed tab) are confirmed, and paid orders still
 * owed an e-mail or a label get them, and sessions past their expiry are deleted (a session is only
 * removed on use otherwise, so an admin who never comes back would stay in the table for ever);
 * once an hour, uploads nothing uses any more are deleted.
 * A sweep slowed by a provider is never overlapped by the next.
 */
export async function sweep(ctx: AppContext): Promise<void> {
  if (running) return;
  running = true;
  try {
    await releaseExpiredHolds(ctx).catch((error: unknown) => console.error("Releasing expired holds failed:", error));
    // What expiring left pending had been paid: confirm it rather than lose it.
    await confirmStrandedPayments(ctx).catch((error: unknown) => console.error("Confirming stranded payments failed:", error));
    await resumeFulfilment(ctx).catch((error: unknown) => console.error("Resuming order fulfilment failed:", error));
    await deleteExpiredSessions(ctx).catch((error: unknown) => console.error("Deleting expired sessions failed:", error));
    const now = ctx.clock.now().getTime();
    if (now - mediaSweptAt >= MEDIA_SWEEP_EVERY_MS) {
      mediaSweptAt = now;
      await removeUnusedMedia(ctx).catch((error: unknown) => console.error("Removing unused media failed:", error));
      await removeAbandonedImages(ctx).catch((error: unknown) => console.error("Removing abandoned images failed:", error));
    }
  } finally {
    running = false;
  }
}
