import { clientIpOf } from "#server/http/requests/client-ip";
import { BODY_LIMITS, BodyTooLarge, readText } from "#server/http/requests/request-body";
import { jsonError } from "#server/http/rest";
import { CSP_REPORT_PATH } from "#server/http/security-headers";
import { CSP_REPORT_TYPES, cspReportSink } from "#server/services/security/csp-reports";
import { route } from "#server/api/route";

const sink = cspReportSink();
const TOO_LARGE = `A report is at most ${BODY_LIMITS.form / 1024} kB.`;

export const cspReportRoutes = [
  /**
   * POST /api/csp-report: a browser's Content-Security-Policy violation report (decision 0028),
   * application/csp-report or application/reports+json → 204, each violation logged as one line.
   * 415 for another type, 413 over 64 kB, 400 when it is not a report, 429 past 60 a minute from
   * one address.
   */
  route({
    method: "POST",
    path: CSP_REPORT_PATH,
    guard: "public",
    handle: async ({ request, context }) => {
      const mediaType = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (!(CSP_REPORT_TYPES as readonly string[]).includes(mediaType))
        return jsonError(415, `A report is ${CSP_REPORT_TYPES.slice(0, 2).join(" or ")}.`);
      let body: string;
      try {
        body = await readText(request, BODY_LIMITS.form);
      } catch (error) {
        if (error instanceof BodyTooLarge) return jsonError(413, TOO_LARGE);
        throw error;
      }
      sink.take(clientIpOf(context), mediaType, body);
      return new Response(null, { status: 204 });
    },
  }),
];
