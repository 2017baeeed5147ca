import { unstable_parseMultipartFormData } from "@remix-run/node";
import { MEDIA_MESSAGES } from "../../server/contracts/admin-settings";
import { requireAdminApi } from "../../server/http/auth";
import { jsonError, methodNotAllowed, rest } from "../../server/http/rest";
import { MediaRejected, mediaPartHandler, refuseOversizedRequest } from "../../server/services/media-uploads";

const STATUS = { tooLarge: 413, wrongType: 415, missing: 400 } as const;

/**
 * POST /api/admin/upload-video, multipart with the file in `video` → 201 `{ videoUrl }` (/uploads/media/...).
 * Refused: over 50MB with 413 (at once when Content-Length says so, else as the bytes pass), not
 * a video (MP4, MOV, WebM, MKV) by its content with 415, no file with 400. The URL is not yet
 * the background video: the client saves it next (spec §4 "Media upload").
 */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  try {
    refuseOversizedRequest("video", request.headers.get("Content-Length"));
    const form = await unstable_parseMultipartFormData(request, mediaPartHandler(ctx, "video"));
    const url = form.get("video");
    if (typeof url !== "string") throw new MediaRejected("video", "missing");
    return Response.json({ videoUrl: url }, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof MediaRejected) return jsonError(STATUS[error.reason], error.message, error.fieldErrors);
    // Not multipart, or a malformed body: the parser's own errors, a 400 rather than a 500.
    if (error instanceof TypeError || (error instanceof Error && error.message.startsWith("malformed"))) {
      return jsonError(400, MEDIA_MESSAGES.video.wrongType, { video: [MEDIA_MESSAGES.video.wrongType] });
    }
    throw error;
  }
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});
