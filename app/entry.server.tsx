import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";

export { apiMiddleware } from "../server/api/express";
export { booted, prepareStore } from "../server/boot";
export { superviseWorkers, workerCount } from "../server/cluster";
export { startupBanner } from "../server/startup-banner";
export { refuseCrossSiteWrites } from "../server/http/origin";
export { staticAssets } from "../server/http/static-assets";
export { waitingRoomGate } from "../server/http/waiting-room-gate";
export { storePageCache } from "./store-page-cache.server";
export { resignSweeper, sweep, SWEEP_EVERY_MS } from "../server/services/sweeper";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  // Bots get the whole page at once; browsers get it as it streams.
  const readyEvent = isbot(request.headers.get("user-agent") || "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      [readyEvent]() {
        shellRendered = true;
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("X-Content-Type-Options", "nosniff");
        responseHeaders.set("Referrer-Policy", "strict-origin-when-cross-origin");
        responseHeaders.set("X-Frame-Options", "DENY");
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, ABORT_DELAY);
  });
}
