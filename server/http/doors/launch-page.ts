import { getAppContext } from "#server/boot";
import { formatStoreDate } from "#server/contracts/store-time";
import { getPublicSettings } from "#server/services/store/settings";

/**
 * What every page with the launch countdown and sign-up card needs: the brand, the server's
 * `now` (the first client render reuses it, so hydration matches), today's date in the store's
 * time zone for the terms, the target, and the settings for whatever else the page shows.
 */
export async function launchPageData() {
  const ctx = await getAppContext();
  const settings = await getPublicSettings(ctx);
  const now = ctx.clock.now();
  return {
    settings,
    base: {
      brand: ctx.config.brand,
      now: now.toISOString(),
      today: formatStoreDate(now),
      countdownDate: settings.countdown_date,
      musicUrl: settings.background_music,
    },
  };
}
