import { z } from "zod";

/**
 * Shippo's tracking webhook (`track_updated`), as its docs show it: the fields the store reads,
 * each bounded; everything else in the event is let through unread.
 */
export const shippoTrackEventSchema = z.looseObject({
  event: z.string().max(64),
  data: z.looseObject({
    carrier: z.string().max(64).nullish(),
    tracking_number: z.string().trim().min(1).max(100),
    tracking_status: z
      .looseObject({
        // UNKNOWN, PRE_TRANSIT, TRANSIT, DELIVERED, RETURNED, FAILURE
        status: z.string().max(32),
        status_date: z.string().max(64).nullish(),
      })
      .nullish(),
  }),
});
export type ShippoTrackEvent = z.infer<typeof shippoTrackEventSchema>;
