import type { AppLoadContext } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { getAppContext } from "#server/boot";
import { fromTrustedHop } from "#server/http/requests/forwarded";
import { healthCheck } from "#server/http/doors/healthz-door";
import { metricsAnswer } from "#server/http/doors/metrics-door";
import { readinessCheck } from "#server/http/doors/readyz-door";
import { installedScrape } from "#server/observability/metrics";
import { serveUpload } from "#server/http/doors/uploads-door";
import { dispatchApi } from "./dispatch";
import { fetchRequestOf, sendFetchResponse } from "./node-exchange";

type FetchDoor = (request: Request, context: AppLoadContext) => Promise<Response>;

/**
 * A door that speaks fetch, mounted in Express ahead of Remix: the request becomes a fetch Request,
 * its body streamed untouched (webhooks read it raw, uploads count its bytes). `getLoadContext` is
 * the one server.js gives Remix, so rate limits see the same client address.
 */
export function fetchDoor(door: FetchDoor, getLoadContext: (req: ExpressRequest) => AppLoadContext): RequestHandler {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      await send(res, await door(toFetchRequest(req, res), getLoadContext(req)));
    } catch (error) {
      next(error);
    }
  };
}

/** The API table: every /api request, REST and tRPC, answered by `dispatchApi`. */
export const apiMiddleware = (getLoadContext: (req: ExpressRequest) => AppLoadContext) => fetchDoor(dispatchApi, getLoadContext);

/**
 * The doors that are not pages, served ahead of Remix so that Remix makes no (empty) browser module
 * for them (decision 0033): GET /healthz, /readyz, /metrics (with its token: decision 0048) and
 * /uploads/{file}.
 */
export function serverDoors(getLoadContext: (req: ExpressRequest) => AppLoadContext): RequestHandler {
  const health = fetchDoor(() => healthCheck(), getLoadContext);
  const ready = fetchDoor(() => readinessCheck(), getLoadContext);
  const uploads = fetchDoor(serveUpload, getLoadContext);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.path === "/healthz") return void health(req, res, next);
    if (req.path === "/readyz") return void ready(req, res, next);
    if (req.path === "/metrics") return void metrics(req, res, next);
    if (req.path.startsWith("/uploads/")) return void uploads(req, res, next);
    next();
  };
}

/** /metrics for the token's holder; anyone else goes on to the store's 404 (metrics-door.ts). */
async function metrics(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  try {
    const { config } = await getAppContext();
    const answer = await metricsAnswer(req.get("authorization"), config.metrics.token, installedScrape());
    if (answer) await send(res, answer);
    else next();
  } catch (error) {
    next(error);
  }
}

// As @remix-run/express builds it, so request.url (and the links made from it) do not change.
function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  // The forwarded host as req.hostname reads it: the trusted hop's (server/http/requests/forwarded.ts).
  const hops = Number(req.app.get("trust proxy")) || 0;
  const port = [fromTrustedHop(req.get("X-Forwarded-Host"), hops), req.get("host")]
    .map((host) => Number.parseInt(host?.split(":")[1] ?? "", 10))
    .find((value) => Number.isSafeInteger(value));
  return fetchRequestOf(req, res, `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
}

// compression() is in front of Express's doors: it compresses what is worth it.
const send = (res: ExpressResponse, response: Response) => sendFetchResponse(res.req, res, response);
