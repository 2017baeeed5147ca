import type { RequestHead } from "#server/http/requests/request-head";
import type { AppLoadContext } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { NotFound } from "#server/errors";
import { shopperContext } from "#server/http/gate/early-access";
import { refuseWithoutPass } from "#server/http/gate/waiting-room-gate";
import { asResponse, JsonAnswer } from "#server/http/json-answer";
import { jsonError, methodNotAllowed, parseJsonBody, privately, toErrorAnswer } from "#server/http/rest";
import { enforceGuard, weakestGuard } from "./guards";
import type { ApiRoute } from "./route";
import { Router, type PathEntry } from "./router";
import { apiRoutes } from "./routes";

export const apiRouter = new Router(apiRoutes);

/**
 * Answers one /api request from the table: the production server's mount and the dev server's
 * catch-all Remix route both call this, so the API behaves the same under both.
 */
export async function dispatchApi(request: Request, context: AppLoadContext = {}): Promise<Response> {
  return asResponse(await answerApi(request, context));
}

/**
 * dispatchApi's answer before it is a fetch Response: a JSON one stays a JsonAnswer, for the write
 * door to send as it is (decision 0069).
 */
export async function answerApi(request: RequestHead, context: AppLoadContext = {}): Promise<Response | JsonAnswer> {
  const { pathname } = new URL(request.url);
  const match = apiRouter.match(pathname);
  // Unknown API paths answer in the API's own language, not with the HTML 404 page.
  if (!match) return jsonError(404, `No API route for ${request.method} ${pathname}.`);
  const { entry, params } = match;
  const method = request.method.toUpperCase();
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: entry.allow } });
  const route = entry.routes.get(method) ?? (method === "HEAD" ? entry.routes.get("GET") : undefined);
  const response = await answer(request, context, entry, route, params);
  return method === "HEAD" ? withoutBody(asResponse(response)) : response;
}

async function answer(
  request: RequestHead,
  context: AppLoadContext,
  entry: PathEntry,
  route: ApiRoute | undefined,
  params: Record<string, string>,
): Promise<Response | JsonAnswer> {
  // A signed-in caller's answer (an admin's, or one caller's own), or one made for an
  // early-access pass (the product list it opens): a proxy cache set up for the store's pages
  // must never hand it to the next caller. Its refusals and errors neither: a 401 or a 404 is
  // this caller's too, and a shared cache may keep a 404 it is not told about (RFC 9111, 4.2.2).
  let personal = route !== undefined && (route.guard !== "public" || route.personal === true);
  const sent = (response: Response | JsonAnswer) => (personal ? privately(response) : response);
  try {
    // A shopper with an early-access pass sees (and buys) what it opens (decision 0020).
    const ctx = await shopperContext(await getAppContext(), request);
    if (ctx.earlyAccess) personal = true;
    if (!route) {
      await enforceGuard(weakestGuard([...entry.routes.values()].map((r) => r.guard)), ctx, request);
      return methodNotAllowed(entry.methods, entry.allow);
    }
    const user = await enforceGuard(route.guard, ctx, request);
    const off = route.unavailable?.(ctx);
    if (off) throw new NotFound(off);
    const refused = route.needsPass ? await refuseWithoutPass(ctx, request) : null;
    if (refused) return refused;
    const input = route.input ? await parseJsonBody(request, route.input) : undefined;
    const result = await route.handle({ request, params, context, ctx, input: input as never, user });
    const response =
      result instanceof Response || result instanceof JsonAnswer ? result : new JsonAnswer(result, route.status ?? 200, route.headers);
    return sent(response);
  } catch (error) {
    return sent(toErrorAnswer(error));
  }
}

function withoutBody(response: Response): Response {
  void response.body?.cancel();
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}
