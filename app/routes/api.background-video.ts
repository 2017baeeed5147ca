import { methodNotAllowed, rest } from "../../server/http/rest";
import { getSettingValue } from "../../server/services/settings";

export const action = () => methodNotAllowed(["GET"]);

/**
 * GET /api/background-video → {videoUrl}
 * Cached briefly: every landing visit may ask, and an admin's change still shows within seconds.
 */
export const loader = rest(async ({ ctx }) =>
  Response.json({ videoUrl: await getSettingValue(ctx, "background_video") }, { headers: { "Cache-Control": "public, max-age=10" } }),
);
