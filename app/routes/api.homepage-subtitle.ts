import { methodNotAllowed, rest } from "../../server/http/rest";
import { getSettingValue } from "../../server/services/settings";

export const action = () => methodNotAllowed(["GET"]);

/**
 * GET /api/homepage-subtitle → {text}
 * Cached briefly: every landing visit may ask, and an admin's change still shows within seconds.
 */
export const loader = rest(async ({ ctx }) =>
  Response.json({ text: await getSettingValue(ctx, "homepage_subtitle") }, { headers: { "Cache-Control": "public, max-age=10" } }),
);
