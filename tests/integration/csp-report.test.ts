import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { CSP_REPORTS_PER_MINUTE, cspReportSink, violationLine } from "#server/services/security/csp-reports";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";
import { loggedAt, loggedText } from "../setup/log-capture";

const legacy = {
  "csp-report": {
    "document-uri": "https://shop.example/store",
    "violated-directive": "script-src-elem",
    "effective-directive": "script-src-elem",
    "blocked-uri": "https://evil.example/x.js",
    "source-file": "https://shop.example/store",
    "line-number": 12,
  },
};
const batch = [
  {
    type: "csp-violation",
    age: 10,
    url: "https://shop.example/countdown",
    body: {
      documentURL: "https://shop.example/countdown",
      effectiveDirective: "script-src-attr",
      blockedURL: "inline",
      sample: "alert(1)",
    },
  },
  { type: "deprecation", body: { id: "x" } },
  {
    type: "csp-violation",
    body: { documentURL: "https://shop.example/", effectiveDirective: "img-src", blockedURL: "https://cdn.example/a.png" },
  },
];

const report = (body: unknown, type: string, ip = "198.51.100.1") =>
  api("POST", "/api/csp-report", { body: typeof body === "string" ? body : JSON.stringify(body), headers: { "Content-Type": type }, ip });

describe("POST /api/csp-report", () => {
  const ctx = createTestContext();
  beforeAll(() => useAppContextForTests(ctx));
  afterEach(() => vi.restoreAllMocks());

  it("takes a report-uri report: 204 and one log line naming the directive, what was blocked and where", async () => {
    const response = await report(legacy, "application/csp-report", "198.51.100.10");
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(loggedAt("warn").map((line) => [line])).toEqual([
      ["CSP violation: script-src-elem blocked https://evil.example/x.js on https://shop.example/store at https://shop.example/store:12"],
    ]);
  });

  it("takes a Reporting API batch: one line per CSP violation, other report types ignored", async () => {
    const response = await report(batch, "application/reports+json", "198.51.100.11");
    expect(response.status).toBe(204);
    expect(loggedAt("warn").map((line) => [line])).toEqual([
      ['CSP violation: script-src-attr blocked inline on https://shop.example/countdown sample "alert(1)"'],
      ["CSP violation: img-src blocked https://cdn.example/a.png on https://shop.example/"],
    ]);
  });

  it("refuses another type (415), a body past 64 kB (413) and what is not a report (400), logging nothing", async () => {
    const wrongType = await report(legacy, "text/plain", "198.51.100.12");
    expect(wrongType.status).toBe(415);
    expect((await wrongType.json()).message).toBe("A report is application/csp-report or application/reports+json.");
    const big = { "csp-report": { ...legacy["csp-report"], padding: "x".repeat(70 * 1024) } };
    const tooLarge = await report(big, "application/csp-report", "198.51.100.12");
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).message).toBe("A report is at most 64 kB.");
    for (const body of ["not json", JSON.stringify({ hello: "world" }), JSON.stringify(legacy)]) {
      const type = body.startsWith('{"csp') ? "application/reports+json" : "application/csp-report";
      const bad = await report(body, type, "198.51.100.12");
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toBe("The report is not a CSP violation report.");
    }
    expect(loggedAt("warn")).toEqual([]);
  });

  it("escapes every field it logs: a newline in a report cannot start a line of its own", async () => {
    const forged = "https://x.example/\nCSP violation: script-src blocked nothing on https://shop.example/admin";
    const hostile = {
      "csp-report": {
        "document-uri": "https://shop.example/store\r\nAdmin signed in",
        "effective-directive": "img-src\u2028x",
        "blocked-uri": forged,
        "source-file": "a b",
        "line-number": 3,
        "script-sample": "x\ny",
      },
    };
    const response = await report(hostile, "application/csp-report", "198.51.100.15");
    expect(response.status).toBe(204);
    expect(loggedAt("warn")).toHaveLength(1);
    const line = loggedAt("warn")[0]!;
    expect(loggedText().split("\n").filter(Boolean)).toHaveLength(1);
    expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(line).toBe(
      'CSP violation: "img-src\\u2028x" blocked "https://x.example/\\nCSP violation: script-src blocked nothing on https://shop.example/admin"' +
        ' on "https://shop.example/store\\r\\nAdmin signed in" at "a b:3" sample "x\\ny"',
    );
  });

  it("answers 429 past 60 reports a minute from one address, other addresses still heard", async () => {
    for (let i = 0; i < CSP_REPORTS_PER_MINUTE; i++)
      expect((await report(legacy, "application/csp-report", "198.51.100.13")).status).toBe(204);
    const refused = await report(legacy, "application/csp-report", "198.51.100.13");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toBe("Too many reports from this address; try again in a minute.");
    expect((await report(legacy, "application/csp-report", "198.51.100.14")).status).toBe(204);
  });
});

describe("the report sink", () => {
  it("caps the log at 600 lines a minute whoever sends, and starts again the next minute", () => {
    let now = 0;
    const lines: string[] = [];
    const sink = cspReportSink({ log: (line) => lines.push(line), now: () => now });
    const hundred = JSON.stringify(Array.from({ length: 100 }, () => batch[0]));
    for (let ip = 0; ip < 7; ip++) sink.take(`10.0.0.${ip}`, "application/reports+json", hundred);
    expect(lines).toHaveLength(600);
    now += 60_000;
    sink.take("10.0.0.99", "application/csp-report", JSON.stringify(legacy));
    expect(lines).toHaveLength(601);
    expect(lines.at(-1)).toBe(
      violationLine({
        documentUrl: "https://shop.example/store",
        directive: "script-src-elem",
        blockedUrl: "https://evil.example/x.js",
        sourceFile: "https://shop.example/store",
        line: 12,
      }),
    );
  });
});
