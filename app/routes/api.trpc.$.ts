import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getAppContext } from "../../server/boot";
import { authenticate } from "../../server/http/auth";
import { clientIpOf } from "../../server/http/client-ip";
import { appRouter } from "../../server/trpc/router";

/** The tRPC endpoint, /api/trpc/*, for the admin widgets. Its context carries the session user. */
async function handle({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  const app = await getAppContext();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async () => {
      const { user, token } = await authenticate(app, request);
      return { app, user, sessionToken: token, clientIp: clientIpOf(context) };
    },
    onError({ error }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(error);
    },
  });
}

export const loader = handle;
export const action = handle;
