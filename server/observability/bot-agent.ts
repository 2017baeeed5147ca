import { isbot } from "isbot";

/** Distinct User-Agents kept: a crowd's browsers are a few hundred; rotating strangers churn the rest. */
const MAX_AGENTS = 2000;
/** Longer ones are not kept: no browser sends one, and a stranger's must not fill the memo. */
const MAX_KEPT_LENGTH = 512;
const known = new Map<string, boolean>();

/**
 * isbot's answer, kept per User-Agent. Its one large regular expression ran for every page view
 * and every document render: a sixtieth of a cached page's CPU (docs/perf.md, 2026-11-29).
 */
export function isBotAgent(userAgent: string): boolean {
  if (userAgent.length > MAX_KEPT_LENGTH) return isbot(userAgent);
  let bot = known.get(userAgent);
  if (bot === undefined) {
    bot = isbot(userAgent);
    if (known.size >= MAX_AGENTS) known.delete(known.keys().next().value!);
    known.set(userAgent, bot);
  }
  return bot;
}

/** Test hook: how many User-Agents the memo holds. */
export const botAgentsKept = () => known.size;
