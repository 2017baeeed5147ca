import { methodNotAllowed, rest } from "../../server/http/rest";
import { sanitizeRichText } from "../../server/services/sanitize";
import { getSettingValue } from "../../server/services/settings";

export const action = () => methodNotAllowed(["GET"]);

/**
 * GET /api/countdown-text → {text}: admin-authored HTML, sanitised again on the way out so a
 * value stored before sanitising existed (or written straight to the database) cannot run.
 * Cached briefly: every countdown visit may ask, and an admin's change still shows within seconds.
 */
export const loader = rest(async ({ ctx }) =>
  Response.json(
    { text: sanitizeRichText(await getSettingValue(ctx, "countdown_text")) },
    { headers: { "Cache-Control": "public, max-age=10" } },
  ),
);
