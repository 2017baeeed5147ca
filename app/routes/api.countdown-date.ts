import { methodNotAllowed, rest } from "../../server/http/rest";
import { getSettingValue } from "../../server/services/settings";

export const action = () => methodNotAllowed(["GET"]);

/**
 * GET /api/countdown-date → {date}. Not cached: open countdowns poll it every 30 s (longer than
 * any useful max-age, so a cache would save no request), and a stale copy held by a browser or a
 * proxy would keep visitors on an old launch time after the admin moves it.
 */
export const loader = rest(async ({ ctx }) =>
  Response.json({ date: await getSettingValue(ctx, "countdown_date") }, { headers: { "Cache-Control": "no-store" } }),
);
