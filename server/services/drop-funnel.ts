import type { FunnelSource } from "./drop-report";

/**
 * The drop's funnel from the recorded events (issue 14 part 4). Until the events table is merged
 * there are none: the report says so rather than showing zeros.
 */
export const dropFunnel: FunnelSource = async () => null;
