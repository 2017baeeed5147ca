import { sanitizeRichText } from "#server/services/security/sanitize";
import { getSettingValue } from "#server/services/store/settings";
import { route } from "#server/api/route";
import { BRIEFLY_PUBLIC, NO_STORE_HEADERS } from "#server/http/cache/cache-control";

// Every landing visit may ask; an admin's change still shows within seconds.
const BRIEFLY = { "Cache-Control": BRIEFLY_PUBLIC };

export const publicSettingsRoutes = [
  /**
   * GET /api/countdown-date → {date}. Not cached: open countdowns poll it every 30 s (longer than
   * any useful max-age, so a cache would save no request), and a stale copy held by a browser or a
   * proxy would keep visitors on an old launch time after the admin moves it.
   */
  route({
    method: "GET",
    path: "/api/countdown-date",
    guard: "public",
    headers: NO_STORE_HEADERS,
    handle: async ({ ctx }) => ({ date: await getSettingValue(ctx, "countdown_date") }),
  }),

  /** GET /api/background-video → {videoUrl} */
  route({
    method: "GET",
    path: "/api/background-video",
    guard: "public",
    headers: BRIEFLY,
    handle: async ({ ctx }) => ({ videoUrl: await getSettingValue(ctx, "background_video") }),
  }),

  /** GET /api/background-music → {musicUrl} */
  route({
    method: "GET",
    path: "/api/background-music",
    guard: "public",
    headers: BRIEFLY,
    handle: async ({ ctx }) => ({ musicUrl: await getSettingValue(ctx, "background_music") }),
  }),

  /** GET /api/homepage-tagline → {text} */
  route({
    method: "GET",
    path: "/api/homepage-tagline",
    guard: "public",
    headers: BRIEFLY,
    handle: async ({ ctx }) => ({ text: await getSettingValue(ctx, "homepage_tagline") }),
  }),

  /** GET /api/homepage-subtitle → {text} */
  route({
    method: "GET",
    path: "/api/homepage-subtitle",
    guard: "public",
    headers: BRIEFLY,
    handle: async ({ ctx }) => ({ text: await getSettingValue(ctx, "homepage_subtitle") }),
  }),

  /**
   * GET /api/countdown-text → {text}: admin-authored HTML, sanitised again on the way out so a
   * value stored before sanitising existed (or written straight to the database) cannot run.
   */
  route({
    method: "GET",
    path: "/api/countdown-text",
    guard: "public",
    headers: BRIEFLY,
    handle: async ({ ctx }) => ({ text: sanitizeRichText(await getSettingValue(ctx, "countdown_text")) }),
  }),
];
