import { z } from "zod";
import { Invalid, TooMany } from "#server/errors";
import { networkOf } from "./client-network";
import { logField, logQuoted } from "./log-field";
import { logWarning } from "#server/observability/log";

/**
 * Content-Security-Policy violation reports (decision 0028): browsers post them to
 * /api/csp-report, in the old `report-uri` form (application/csp-report, one report) or the
 * Reporting API's (application/reports+json, a batch). Each violation is logged as one line; a
 * report is never stored. Anyone can post here, so a body is small, a caller is limited and the
 * log is capped per process.
 */

export const CSP_REPORT_TYPES = ["application/csp-report", "application/reports+json", "application/json"] as const;
/** Reports one address may post per minute (a page with a real problem sends a few per view). */
export const CSP_REPORTS_PER_MINUTE = 60;
/** Violations logged per minute per process, whoever sent them. */
const LOG_LINES_PER_MINUTE = 600;

export const CSP_REPORT_MESSAGES = {
  invalid: "The report is not a CSP violation report.",
  tooMany: "Too many reports from this address; try again in a minute.",
} as const;

export interface CspViolation {
  documentUrl: string;
  directive: string;
  blockedUrl: string;
  sourceFile?: string;
  line?: number;
  sample?: string;
}

const text = z.string().max(2048).optional();
const number = z.number().int().nonnegative().optional();
// report-uri's body: { "csp-report": { "document-uri", "violated-directive", "effective-directive", … } }
const legacySchema = z.object({
  "csp-report": z.looseObject({
    "document-uri": text,
    "violated-directive": text,
    "effective-directive": text,
    "blocked-uri": text,
    "source-file": text,
    "line-number": number,
    "script-sample": text,
  }),
});
// report-to's body: [{ type: "csp-violation", body: { documentURL, effectiveDirective, blockedURL, … } }]
const reportingSchema = z
  .array(
    z.looseObject({
      type: z.string(),
      body: z
        .looseObject({
          documentURL: text,
          effectiveDirective: text,
          blockedURL: text,
          sourceFile: text,
          lineNumber: number,
          sample: text,
        })
        .optional(),
    }),
  )
  .max(100);

/** The violations in a report body of the given media type; Invalid when it is not one. */
export function violationsIn(mediaType: string, body: string): CspViolation[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Invalid(CSP_REPORT_MESSAGES.invalid);
  }
  const legacy = mediaType !== "application/reports+json" ? legacySchema.safeParse(json) : null;
  if (legacy?.success) {
    const r = legacy.data["csp-report"];
    return [
      {
        documentUrl: r["document-uri"] ?? "",
        directive: r["effective-directive"] ?? r["violated-directive"] ?? "",
        blockedUrl: r["blocked-uri"] ?? "",
        sourceFile: r["source-file"],
        line: r["line-number"],
        sample: r["script-sample"],
      },
    ];
  }
  const batch = mediaType !== "application/csp-report" ? reportingSchema.safeParse(json) : null;
  if (!batch?.success) throw new Invalid(CSP_REPORT_MESSAGES.invalid);
  return batch.data
    .filter((report) => report.type === "csp-violation" && report.body)
    .map(({ body }) => ({
      documentUrl: body!.documentURL ?? "",
      directive: body!.effectiveDirective ?? "",
      blockedUrl: body!.blockedURL ?? "",
      sourceFile: body!.sourceFile,
      line: body!.lineNumber,
      sample: body!.sample,
    }));
}

/**
 * One log line: what was blocked, by which directive, on which page. Every field is the sender's,
 * so each is escaped (logField): a report cannot write a second line.
 */
export function violationLine(v: CspViolation): string {
  const field = (value: string | undefined) => (value ? logField(value) : "?");
  const where = v.sourceFile ? ` at ${logField(`${v.sourceFile}${v.line ? `:${v.line}` : ""}`)}` : "";
  const sample = v.sample ? ` sample ${logQuoted(v.sample.slice(0, 80))}` : "";
  return `CSP violation: ${field(v.directive)} blocked ${field(v.blockedUrl)} on ${field(v.documentUrl)}${where}${sample}`;
}

/** Fixed one-minute windows kept in memory: reports are not worth a database write each. */
class MinuteCounter {
  private windowStart = 0;
  private counts = new Map<string, number>();
  constructor(private readonly now: () => number) {}
  /** Counts one for `key`; returns the count in this minute, this one included. */
  hit(key: string): number {
    const now = this.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.counts.clear();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    // Bounded: a flood from many addresses resets the table rather than growing it.
    if (this.counts.size >= 10_000) this.counts.clear();
    this.counts.set(key, count);
    return count;
  }
  secondsLeft(): number {
    return Math.max(1, Math.ceil((this.windowStart + 60_000 - this.now()) / 1000));
  }
}

/** Takes reports: logs each violation once per line, refusing a caller over its limit. */
export function cspReportSink({
  log = (line: string) => logWarning(line),
  now = Date.now,
}: { log?: (line: string) => void; now?: () => number } = {}) {
  const perAddress = new MinuteCounter(now);
  const lines = new MinuteCounter(now);
  return {
    take(clientIp: string, mediaType: string, body: string): number {
      const calls = perAddress.hit(networkOf(clientIp));
      if (calls > CSP_REPORTS_PER_MINUTE) throw new TooMany(CSP_REPORT_MESSAGES.tooMany, perAddress.secondsLeft());
      const violations = violationsIn(mediaType, body);
      for (const violation of violations) if (lines.hit("all") <= LOG_LINES_PER_MINUTE) log(violationLine(violation));
      return violations.length;
    },
  };
}
