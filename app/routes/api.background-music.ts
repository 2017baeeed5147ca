import { methodNotAllowed, rest } from "../../server/http/rest";
import { getSettingValue } from "../../server/services/settings";

export const action = () => methodNotAllowed(["GET"]);

/**
 * GET /api/background-music → {musicUrl}
 * Cached briefly: every landing visit may ask, and an admin's change still shows within seconds.
 */
export const loader = rest(async ({ ctx }) =>
  Response.json({ musicUrl: await getSettingValue(ctx, "background_music") }, { headers: { "Cache-Control": "public, max-age=10" } }),
);
