import type { FunnelSource } from "./drop-report";
import { funnelFor } from "./funnel";

const HOUR = 60 * 60_000;

/**
 * The drop's funnel (decision 0026): the dashboard's funnelFor over the rush, T-0 to T+1 h. The
 * roll-ups count whole hours, so the span is widened to the hours that cover it (a T-0 on the hour,
 * the usual case, is exactly one hour).
 */
export const dropFunnel: FunnelSource = (ctx, { from, to, includeTest }) =>
  funnelFor(ctx, {
    from: new Date(Math.floor(from.getTime() / HOUR) * HOUR),
    to: new Date(Math.ceil(to.getTime() / HOUR) * HOUR),
    includeTest,
  });
