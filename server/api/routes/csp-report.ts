import { clientIpOf } from "../../http/client-ip";
import { jsonError } from "../../http/rest";
import { CSP_REPORT_PATH } from "../../http/security-headers";
import { CSP_REPORT_TYPES, cspReportSink, MAX_CSP_REPORT_BYTES } from "../../services/csp-reports";
import { route } from "../route";

const sink = cspReportSink();
const TOO_LARGE = `A report is at most ${MAX_CSP_REPORT_BYTES / 1024} kB.`;

/** The body as text, refused past the limit without reading further. */
async function limitedText(request: Request): Promise<string | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_CSP_REPORT_BYTES) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > MAX_CSP_REPORT_BYTES) {
      await reader!.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

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
      const body = await limitedText(request);
      if (body === null) return jsonError(413, TOO_LARGE);
      sink.take(clientIpOf(context), mediaType, body);
      return new Response(null, { status: 204 });
    },
  }),
];
