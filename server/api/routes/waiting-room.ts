import { waitingRoomPatchSchema } from "#server/contracts/waiting-room";
import { clientIpOf } from "#server/http/requests/client-ip";
import { NO_STORE_HEADERS, PRIVATE_NO_STORE } from "#server/http/cache/cache-control";
import { placeCookiesOf, placeSetCookies } from "#server/http/doors/waiting-room-door";
import { joinLine, lineStatus } from "#server/services/drop/waiting-room";
import { updateWaitingRoom, waitingRoomAdmin } from "#server/services/drop/waiting-room-admin";
import { route } from "#server/api/route";

function answer(body: unknown, status: number, cookies: string[]): Response {
  const headers = new Headers({ "Cache-Control": PRIVATE_NO_STORE });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return Response.json(body, { status, headers });
}

export const waitingRoomRoutes = [
  /**
   * POST /api/waiting-room joins the line (201), or returns this browser's place (200):
   * `{ state, position, ahead, etaSeconds, admittedUntil }`. 429 past the per-address limit.
   */
  route({
    method: "POST",
    path: "/api/waiting-room",
    guard: "public",
    handle: async ({ request, context, ctx }) => {
      const result = await joinLine(ctx, { ...placeCookiesOf(request), address: clientIpOf(context) });
      return answer(result.status, result.joined ? 201 : 200, placeSetCookies(ctx, request, result, result.joined));
    },
  }),

  /** GET /api/waiting-room: where this browser's place stands; the pass cookie comes with "admitted". Cheap to poll. */
  route({
    method: "GET",
    path: "/api/waiting-room",
    guard: "public",
    handle: async ({ request, ctx }) => {
      const result = await lineStatus(ctx, placeCookiesOf(request));
      return answer(result.status, 200, placeSetCookies(ctx, request, result, false));
    },
  }),

  /** GET /api/admin/waiting-room: the settings and the live line. */
  route({
    method: "GET",
    path: "/api/admin/waiting-room",
    guard: "admin",
    headers: NO_STORE_HEADERS,
    handle: ({ ctx }) => waitingRoomAdmin(ctx),
  }),

  /** PATCH /api/admin/waiting-room: any settings, `paused`, `ended`; answers as GET does. */
  route({
    method: "PATCH",
    path: "/api/admin/waiting-room",
    guard: "admin",
    input: waitingRoomPatchSchema,
    headers: NO_STORE_HEADERS,
    handle: ({ ctx, input }) => updateWaitingRoom(ctx, input),
  }),
];
