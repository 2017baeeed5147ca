import { describe, expect, it } from "vitest";
import { botAgentsKept, isBotAgent } from "#server/observability/bot-agent";

const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("isBotAgent", () => {
  it("tells a crawler from a browser, the first time and from the memo", () => {
    for (let round = 0; round < 2; round++) {
      expect(isBotAgent(BROWSER)).toBe(false);
      expect(isBotAgent(CRAWLER)).toBe(true);
      expect(isBotAgent("curl/8.5.0")).toBe(true);
    }
  });

  it("keeps at most 2,000 agents however many strangers make up", () => {
    for (let n = 0; n < 5000; n++) isBotAgent(`${BROWSER} r${n}`);
    expect(botAgentsKept()).toBe(2000);
    // The newest are kept, and still answered right.
    expect(isBotAgent(`${BROWSER} r4999`)).toBe(false);
  });

  it("answers an overlong agent without keeping it", () => {
    const before = botAgentsKept();
    const long = `${CRAWLER} ${"x".repeat(600)}`;
    expect(isBotAgent(long)).toBe(true);
    expect(botAgentsKept()).toBe(before);
  });
});
