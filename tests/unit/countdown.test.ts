import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { Countdown } from "#app/components/countdown";
import { pad2, remainingMs, splitRemaining } from "#app/components/countdown/time";
import { formatLaunchTime } from "#server/contracts/store-zone";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("splitRemaining", () => {
  it("splits a duration into days, hours, minutes and seconds", () => {
    expect(splitRemaining(3 * DAY + 4 * HOUR + 5 * MINUTE + 6 * SECOND)).toEqual({ days: 3, hours: 4, minutes: 5, seconds: 6 });
  });

  it("rounds partial seconds down, so 00 shows only when the target is reached", () => {
    expect(splitRemaining(59 * SECOND + 999)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 59 });
    expect(splitRemaining(999)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });

  it("keeps counting days past 99", () => {
    expect(splitRemaining(123 * DAY + HOUR)).toEqual({ days: 123, hours: 1, minutes: 0, seconds: 0 });
  });

  it.each([0, -1, -5 * DAY, Number.NaN, Number.NEGATIVE_INFINITY])("answers zeros for %s", (ms) => {
    expect(splitRemaining(ms)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});

describe("pad2", () => {
  it.each([
    [0, "00"],
    [7, "07"],
    [42, "42"],
    [123, "123"],
    [-3, "00"],
  ])("shows %s as %s", (value, shown) => {
    expect(pad2(value)).toBe(shown);
  });
});

describe("remainingMs", () => {
  it("measures from now to the target", () => {
    expect(remainingMs("2025-07-04T04:00:00.000Z", "2025-07-04T03:59:30.000Z")).toBe(30 * SECOND);
    expect(remainingMs("2025-07-04T04:00:00.000Z", "2025-07-04T04:00:01.000Z")).toBe(-SECOND);
  });
});

describe("formatLaunchTime", () => {
  it("shows the launch in US Eastern time, daylight saving or not", () => {
    expect(formatLaunchTime("2025-07-04T04:00:00.000Z")).toBe("Friday, July 4, 2025 at 12:00 AM EDT");
    expect(formatLaunchTime("2026-01-15T23:30:00.000Z")).toBe("Thursday, January 15, 2026 at 6:30 PM EST");
  });

  it("answers an empty string for a date it cannot read", () => {
    expect(formatLaunchTime("soon")).toBe("");
  });
});

/** What the server sends: the component rendered once, with the loader's clock, no effects. */
function serverHtml(target: string, serverNow: string) {
  return renderToStaticMarkup(createElement(StaticRouter, { location: "/" }, createElement(Countdown, { target, serverNow })));
}

describe("the countdown as the server renders it", () => {
  it("shows the real remaining time in the four labelled units, two digits each", () => {
    const html = serverHtml("2025-07-04T04:00:00.000Z", "2025-07-01T02:58:51.000Z");
    const units = [...html.matchAll(/countdown-digits[^>]*>(\d+)<\/span><span class="countdown-label">(\w+)</g)].map((m) => [m[2], m[1]]);
    expect(units).toEqual([
      ["Days", "03"],
      ["Hours", "01"],
      ["Mins", "01"],
      ["Secs", "09"],
    ]);
    expect(html).toContain("Launching <time");
    expect(html).toContain("Friday, July 4, 2025 at 12:00 AM EDT");
    expect(html).toContain('href="/store"');
    expect(html).not.toContain("LAUNCH DAY IS HERE!");
    // Days away: no self-refresh for visitors without JavaScript.
    expect(html).not.toContain("http-equiv");
  });

  it("once the target has passed, shows the launch message and redirects visitors without JavaScript", () => {
    const html = serverHtml("2025-07-04T04:00:00.000Z", "2025-07-04T04:00:00.000Z");
    expect(html).toContain("LAUNCH DAY IS HERE!");
    expect(html).toContain("Redirecting to store...");
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="2;url=/store"/></noscript>');
    expect(html).not.toContain("countdown-digits");
  });

  it("close to launch, reloads itself for visitors without JavaScript when the time comes", () => {
    const html = serverHtml("2025-07-04T04:00:00.000Z", "2025-07-04T03:59:30.000Z");
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="31"/></noscript>');
  });
});
