import { PassThrough, Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { bodyFor, memoisedRender, renderMemoKey } from "./render-memo.server";

export { apiMiddleware } from "../server/api/express";
export { booted, prepareStore } from "../server/boot";
export { superviseWorkers, workerCount } from "../server/cluster";
export { startupBanner } from "../server/startup-banner";
export { refuseCrossSiteWrites } from "../server/http/origin";
export { staticAssets } from "../server/http/static-assets";
export { storeFastPath } from "./store-fast-path.server";
export { waitingRoomGate } from "../server/http/waiting-room-gate";
export { resignSweeper, sweep, SWEEP_EVERY_MS } from "../server/services/sweeper";
export { startFulfilmentJob } from "../server/services/fulfilment-job";

const ABORT_DELAY = 5_000;

function pageHeaders(headers: Headers) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
}

/** The whole page in one buffer; refused (so never memoised) if anything in it failed. */
function renderWhole(request: Request, remixContext: EntryContext): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    sink.on("finish", () => resolve(Buffer.concat(chunks)));
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      onAllReady: () => pipe(sink),
      onShellError: reject,
      onError(error: unknown) {
        reject(error);
        abort();
      },
    });
    setTimeout(abort, ABORT_DELAY).unref();
  });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const key = renderMemoKey(request, responseStatusCode, remixContext);
  if (key) {
    try {
      const copy = await memoisedRender(key, () => renderWhole(request, remixContext));
      pageHeaders(responseHeaders);
      const body = bodyFor(copy, request, responseHeaders);
      responseHeaders.set("Content-Length", String(body.length));
      // Node buffers sit on a plain ArrayBuffer, which is what a Response body takes.
      return new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode });
    } catch {
      // Rendered again below, for this request alone, with the usual error handling.
    }
  }
  return streamedPage(request, responseStatusCode, responseHeaders, remixContext);
}

function streamedPage(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  // Bots get the whole page at once; browsers get it as it streams.
  const readyEvent = isbot(request.headers.get("user-agent") || "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      [readyEvent]() {
        shellRendered = true;
        const body = new PassThrough();
        pageHeaders(responseHeaders);
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
