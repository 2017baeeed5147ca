import { getAppContext } from "#server/boot";
import { formatStoreDate } from "#server/contracts/store-time";
import { getPublicSettings } from "#server/services/store/settings";

/** docs/spec.md §2 "About": the brand, the background video, and the dated line of the first drop. */
export async function aboutLoader() {
  const ctx = await getAppContext();
  const settings = await getPublicSettings(ctx);
  const launch = new Date(settings.countdown_date);
  return {
    brand: ctx.config.brand,
    videoUrl: settings.background_video,
    // The dated line is the first drop's day, as the admin set it (Eastern, like the countdown).
    firstDrop: { iso: launch.toISOString(), label: formatStoreDate(launch) },
  };
}
