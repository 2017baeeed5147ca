import { fetchRequestFor, type RequestHead } from "#server/http/requests/request-head";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { authenticate } from "#server/http/auth";
import { clientIpOf } from "#server/http/requests/client-ip";
import { isConnectionLost, reportConnectionLost, STORE_BUSY_HEADERS } from "#server/http/store-busy";
import { BODY_LIMITS, readBody } from "#server/http/requests/request-body";
import { appRouter } from "#server/trpc/router";
import { TRPC_MAX_BATCH } from "#server/contracts/trpc-batch";
import { route } from "#server/api/route";
import { logError } from "#server/observability/log";

/**
 * A mutation's body read here, within the form limit (request-body.ts), and handed to tRPC whole:
 * its adapter would read any length. Past the limit, BodyTooLarge: the API's own 413 (rest.ts).
 */
async function bounded(request: RequestHead): Promise<Request> {
  const whole = fetchRequestFor(request);
  if (request.method === "GET" || request.method === "HEAD") return whole;
  return new Request(whole, { body: await readBody(request, BODY_LIMITS.form) });
}

/**
 * The tRPC endpoint, /api/trpc/*, for the admin widgets: public here because every procedure
 * checks its own caller (server/trpc/init.ts); its context carries the session user.
 */
const trpc = route({
  method: "GET",
  path: "/api/trpc/*",
  guard: "public",
  personal: true,
  handle: async ({ request, context, ctx: app }) =>
    fetchRequestHandler({
      endpoint: "/api/trpc",
      req: await bounded(request),
      router: appRouter,
      maxBatchSize: TRPC_MAX_BATCH,
      createContext: async () => {
        const { user, token } = await authenticate(app, request);
        return { app, user, sessionToken: token, clientIp: clientIpOf(context) };
      },
      onError({ error }) {
        if (isConnectionLost(error.cause)) reportConnectionLost(error.cause);
        else if (error.code === "INTERNAL_SERVER_ERROR") logError("The request failed", error);
      },
      // A procedure that met a lost database answers 503 (server/trpc/init.ts): say when to retry.
      responseMeta: ({ errors }) => (errors.some((error) => isConnectionLost(error.cause)) ? { headers: STORE_BUSY_HEADERS } : {}),
    }),
});

// Queries come as GET, mutations (and batches of them) as POST.
export const trpcRoutes = [trpc, { ...trpc, method: "POST" as const }];
