import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./lib/nonce";
import { freshNonce, NONCE_STANDIN } from "#server/http/cache/nonce-splice";
import { isTemplateRender } from "#server/http/cache/page-template";
import { privately } from "#server/http/rest";
import { preloadNonceStream, scriptsStart, withPreloadNonce } from "./preload-nonce.server";
import { memoisedRender, renderMemoKey } from "./render-memo.server";
import { memoisedAnswer, pageHeaders } from "./page-headers.server";
import { storeBusyData, storeBusyPage } from "./store-busy.server";
import { logError } from "#server/observability/log";
import { isBotAgent } from "#server/observability/bot-agent";

export { apiMiddleware, serverDoors } from "#server/api/express";
export { alertFromPrimary, booted, prepareStore } from "#server/boot";
export { superviseWorkers, workerCount } from "#server/cluster";
export { startupBanner } from "#server/startup-banner";
export { batchLogLines, flushLog, log, logError } from "#server/observability/log";
export { refuseCrossSiteWrites } from "#server/http/requests/origin";
export { trustProxyHops } from "#server/http/requests/forwarded";
export { rawRequestListener } from "#server/http/raw-listener";
export { expressErrors } from "#server/http/failure-answer";
export { StoreResponse } from "#server/http/store-response";
export { staticAssets } from "#server/http/cache/static-assets";
export { PUBLIC_FILE_MAX_AGE } from "#server/http/cache/cache-control";
export { storeFastPath } from "./store-fast-path.server";
export { pageMethods } from "./page-methods.server";
export { waitingRoomGate } from "#server/http/gate/waiting-room-gate";
export { flushEvents, flushSoldOutMisses, resignSweeper, startFulfilmentJob, sweep, SWEEP_EVERY_MS } from "#server/jobs";
export { installMetrics } from "#server/observability/metrics";
export { beginShutdown } from "#server/observability/lifecycle";
// A lost database is a 503 page, not a logged 500 (decision 0041).
export { handleError } from "./store-busy.server";

const ABORT_DELAY = 5_000;

/** Client navigations' `.data` answers: private unless their route said otherwise. */
export const handleDataRequest = (response: Response, { request }: { request: Request }): Response =>
  privately(storeBusyData(request, response));

const page = (request: Request, remixContext: EntryContext, nonce: string) => (
  <NonceContext.Provider value={nonce}>
    <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
  </NonceContext.Provider>
);

/**
 * The whole page in one buffer, with the stand-in nonce each answer replaces; refused (so never
 * memoised) if anything in it failed.
 */
function renderWhole(request: Request, remixContext: EntryContext): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const when = scriptsStart(new URL(request.url).pathname);
    sink.on("finish", () => resolve(Buffer.from(withPreloadNonce(Buffer.concat(chunks).toString(), NONCE_STANDIN, when))));
    const { pipe, abort } = renderToPipeableStream(page(request, remixContext, NONCE_STANDIN), {
      nonce: NONCE_STANDIN,
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
  loadContext: AppLoadContext,
) {
  storeBusyPage(request, responseStatusCode, responseHeaders);
  const key = renderMemoKey(request, responseStatusCode, remixContext);
  if (key) {
    try {
      const copy = await memoisedRender(key, () => renderWhole(request, remixContext));
      const body = await memoisedAnswer(copy, request, responseHeaders, loadContext);
      // Node buffers sit on a plain ArrayBuffer, which is what a Response body takes.
      return new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode });
    } catch {
      // Rendered again below, for this request alone, with the usual error handling.
    }
  }
  return streamedPage(request, responseStatusCode, responseHeaders, remixContext, loadContext);
}

async function streamedPage(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Bots get the whole page at once; browsers get it as it streams.
  const readyEvent = isBotAgent(request.headers.get("user-agent") || "") ? "onAllReady" : "onShellReady";
  // The page cache's template is shared by every visitor: it fills in each answer's nonce itself.
  const nonce = isTemplateRender(loadContext) ? NONCE_STANDIN : freshNonce();
  await pageHeaders(responseHeaders, request, loadContext, nonce);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(page(request, remixContext, nonce), {
      nonce,
      [readyEvent]() {
        shellRendered = true;
        const body = preloadNonceStream(nonce, scriptsStart(new URL(request.url).pathname));
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) logError("The request failed", error);
      },
    });
    setTimeout(abort, ABORT_DELAY);
  });
}
