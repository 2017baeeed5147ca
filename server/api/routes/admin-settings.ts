import { fetchRequestFor } from "#server/http/requests/request-head";
import { isBodyAborted } from "#server/http/requests/request-body";
import { REQUEST_BODY_MESSAGES } from "#server/contracts/request-body";
import { jsonAnswer } from "#server/http/json-answer";
import { unstable_parseMultipartFormData } from "@remix-run/node";
import {
  MEDIA_MESSAGES,
  changePasswordApiSchema,
  musicUrlSchema,
  settingUpdateSchema,
  textSchemaFor,
  videoUrlSchema,
  type MediaKind,
  type TextSettingKey,
} from "#server/contracts/admin-settings";
import { authenticate } from "#server/http/auth";
import { jsonError } from "#server/http/rest";
import { changePassword, runShippingTest, ShippingTestFailed } from "#server/services/accounts/account";
import { getCountdownSetting, setBackgroundMusic, setBackgroundVideo, setText, updateSetting } from "#server/services/store/admin-settings";
import { MediaRejected, mediaPartHandler, refuseOversizedRequest } from "#server/services/catalog/media-uploads";
import { route } from "#server/api/route";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";

const STATUS = { tooLarge: 413, wrongType: 415, missing: 400 } as const;

/** POST `{ text }` → `{ text }` as stored. */
const textRoute = (path: string, key: TextSettingKey) =>
  route({
    method: "POST",
    path,
    guard: "admin",
    input: textSchemaFor(key),
    headers: NO_STORE_HEADERS,
    handle: async ({ input, ctx }) => ({ text: (await setText(ctx, key, input.text)).value }),
  });

/**
 * POST multipart with the file in `video` or `audio` → 201 `{ videoUrl }` or `{ audioUrl }`
 * (/uploads/media/...). Refused: over 50MB with 413 (at once when Content-Length says so, else as
 * the bytes pass), the wrong kind of file by its content with 415, no file with 400. The URL is
 * not yet the background media: the client saves it next (docs/spec.md §4 "Media upload").
 */
const mediaUploadRoute = (path: string, kind: MediaKind) =>
  route({
    method: "POST",
    path,
    guard: "admin",
    handle: async ({ request, ctx }) => {
      try {
        refuseOversizedRequest(kind, request.headers.get("Content-Length"));
        const form = await unstable_parseMultipartFormData(fetchRequestFor(request), mediaPartHandler(ctx, kind));
        const url = form.get(kind);
        if (typeof url !== "string") throw new MediaRejected(kind, "missing");
        return jsonAnswer({ [`${kind}Url`]: url }, { status: 201, headers: NO_STORE_HEADERS });
      } catch (error) {
        if (error instanceof MediaRejected) return jsonError(STATUS[error.reason], error.message, error.fieldErrors);
        // The admin hung up (or the framing broke) mid-upload: nothing was kept, and it is not the database's doing.
        if (isBodyAborted(error)) return jsonError(400, REQUEST_BODY_MESSAGES.incomplete, {});
        // Not multipart, or a malformed body: the parser's own errors, a 400 rather than a 500.
        if (error instanceof TypeError || (error instanceof Error && error.message.startsWith("malformed"))) {
          return jsonError(400, MEDIA_MESSAGES[kind].wrongType, { [kind]: [MEDIA_MESSAGES[kind].wrongType] });
        }
        throw error;
      }
    },
  });

export const adminSettingsRoutes = [
  /**
   * GET /api/admin/settings/countdown_date → `{ key, value, updatedAt }`: the stored target (ISO,
   * UTC), or the spec's default with `updatedAt: null` when the admin never set one.
   */
  route({
    method: "GET",
    path: "/api/admin/settings/countdown_date",
    guard: "admin",
    handle: ({ ctx }) => getCountdownSetting(ctx),
  }),

  /**
   * POST /api/admin/settings `{ key, value }` → `{ key, value, updatedAt }`. For countdown_date the
   * value is the ISO instant of the target (with its offset); days before today in New York are
   * refused. Other keys go through their own rules (URLs checked, countdown HTML sanitised).
   * Public GET /api/countdown-date is not cached, so it answers the new date at once.
   */
  route({
    method: "POST",
    path: "/api/admin/settings",
    guard: "admin",
    input: settingUpdateSchema,
    headers: NO_STORE_HEADERS,
    handle: ({ input, ctx }) => updateSetting(ctx, input.key, input.value),
  }),

  /** POST /api/admin/background-video `{ videoUrl }` → `{ videoUrl }` (an http(s) URL or a site path). */
  route({
    method: "POST",
    path: "/api/admin/background-video",
    guard: "admin",
    input: videoUrlSchema,
    headers: NO_STORE_HEADERS,
    handle: async ({ input, ctx }) => ({ videoUrl: (await setBackgroundVideo(ctx, input.videoUrl)).value }),
  }),

  /** POST /api/admin/background-music `{ musicUrl }` → `{ musicUrl }` (an http(s) URL or a site path). */
  route({
    method: "POST",
    path: "/api/admin/background-music",
    guard: "admin",
    input: musicUrlSchema,
    headers: NO_STORE_HEADERS,
    handle: async ({ input, ctx }) => ({ musicUrl: (await setBackgroundMusic(ctx, input.musicUrl)).value }),
  }),

  // The countdown heading is HTML that may break lines with <br>, sanitised before it is stored;
  // the tagline and subtitle are plain text.
  textRoute("/api/admin/countdown-text", "countdown_text"),
  textRoute("/api/admin/homepage-tagline", "homepage_tagline"),
  textRoute("/api/admin/homepage-subtitle", "homepage_subtitle"),

  mediaUploadRoute("/api/admin/upload-video", "video"),
  mediaUploadRoute("/api/admin/upload-audio", "audio"),

  /**
   * POST /api/admin/change-password `{ currentPassword, newPassword, confirmPassword? }` →
   * `{ message: "Password updated" }`. A wrong current password is a 400 on `currentPassword`. The
   * caller's own session stays signed in; every other session of the user is signed out.
   */
  route({
    method: "POST",
    path: "/api/admin/change-password",
    guard: "admin",
    input: changePasswordApiSchema,
    headers: NO_STORE_HEADERS,
    handle: async ({ request, input, ctx, user }) => {
      const { token } = await authenticate(ctx, request);
      return changePassword(ctx, user, token, input);
    },
  }),

  /**
   * POST /api/admin/test-shippo → `{ message, details: { trackingNumber, carrier, cost, labelUrl } }`:
   * a test label for a fixed parcel through the shipping integration (Shippo with a test token, or
   * the local label maker). The path carries the provider's name, as docs/spec.md §7 has it. The provider
   * failing is a 502 with its message; a live Shippo token (which would buy postage) a 409.
   */
  route({
    method: "POST",
    path: "/api/admin/test-shippo",
    guard: "admin",
    headers: NO_STORE_HEADERS,
    handle: async ({ ctx }) => {
      try {
        return await runShippingTest(ctx);
      } catch (error) {
        if (error instanceof ShippingTestFailed) return jsonError(502, error.message);
        throw error;
      }
    },
  }),
];
