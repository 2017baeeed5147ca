import { isbot } from "isbot";
import { boundedMemo } from "#server/bounded-memo";

/** Distinct User-Agents kept: a crowd's browsers are a few hundred; rotating strangers churn the rest. */
const MAX_AGENTS = 2000;
/** Longer ones are not kept: no browser sends one, and a stranger's must not fill the memo. */
const MAX_KEPT_LENGTH = 512;

/**
 * isbot's answer, kept per User-Agent. Its one large regular expression ran for every page view
 * and every document render: a sixtieth of a cached page's CPU (docs/perf.md, 2026-11-29).
 */
export const isBotAgent = boundedMemo(isbot, { entries: MAX_AGENTS, maxKeyLength: MAX_KEPT_LENGTH });

/** Test hook: how many User-Agents the memo holds. */
export const botAgentsKept = () => isBotAgent.size;
