import type { AppLoadContext } from "@remix-run/node";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { dispatchApi } from "./dispatch";

/**
 * The table mounted in Express ahead of Remix: every /api request becomes a fetch Request for
 * `dispatchApi`, its body streamed untouched (webhooks read it raw, uploads count its bytes).
 * `getLoadContext` is the one server.js gives Remix, so rate limits see the same client address.
 */
export function apiMiddleware(getLoadContext: (req: ExpressRequest) => AppLoadContext): RequestHandler {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await dispatchApi(toFetchRequest(req, res), getLoadContext(req));
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

// As @remix-run/express builds it, so request.url (and the links made from it) do not change.
function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const port = [req.get("X-Forwarded-Host"), req.get("host")]
    .map((host) => Number.parseInt(host?.split(":")[1] ?? "", 10))
    .find((value) => Number.isSafeInteger(value));
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(key, one);
    else if (value) headers.set(key, value);
  }
  // A caller who hangs up aborts the handler's work, as under Remix.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

async function send(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers) res.append(key, value);
  if (response.body && /\bjson\b/i.test(response.headers.get("Content-Type") ?? "")) {
    // JSON answers are small and whole: sent with their length, so compression() leaves those under
    // its 1 kB threshold alone (a brotli stream per bag or rates answer cost more CPU than the call).
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("Content-Length", body.length);
    res.end(body);
  } else if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
