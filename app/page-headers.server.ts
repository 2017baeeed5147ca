import type { AppLoadContext } from "@remix-run/node";
import { freshNonce } from "#server/http/cache/nonce-splice";
import { isTemplateRender } from "#server/http/cache/page-template";
import { PERSONAL_PAGE, PRIVATE_NO_STORE } from "#server/http/cache/cache-control";
import type { NonceCopy } from "#server/http/cache/nonce-splice";
import { documentSecurityHeaders } from "#server/http/doors/document-door";
import { bodyFor } from "./render-memo.server";
import { isCachedPage } from "./store-page-cache.server";

/**
 * Who may keep an answer that no route set Cache-Control on: the visitor's own pages (the bag, the
 * checkout, their place in line, the back office) and every page's data (the root's carries the
 * visitor) are kept by no cache, shared or the browser's. The public pages (those the page cache
 * serves) rendered here for a visitor with a cookie say what the cache says for them; the cache's
 * own renders are left to it.
 */
function defaultCacheControl(request: Request, loadContext: AppLoadContext): string | null {
  if (isTemplateRender(loadContext)) return null;
  if (!isCachedPage(new URL(request.url).pathname)) return PRIVATE_NO_STORE;
  return request.headers.has("Cookie") ? PERSONAL_PAGE : null;
}

/** The page's type, caching and security headers; the CSP carries this answer's nonce (decision 0028). */
export async function pageHeaders(headers: Headers, request: Request, loadContext: AppLoadContext, nonce: string) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  const cacheControl = headers.has("Cache-Control") ? null : defaultCacheControl(request, loadContext);
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  for (const [name, value] of await documentSecurityHeaders(request.url, nonce)) headers.set(name, value);
}

/**
 * A kept copy of a page (render-memo.server.ts) as this answer's body, with a nonce of its own in
 * the body and the CSP, and the page's headers added to `headers`: Remix's document answer and the
 * memo door's (memo-door.server.ts) are the same answer.
 */
export async function memoisedAnswer(copy: NonceCopy, request: Request, headers: Headers, loadContext: AppLoadContext): Promise<Buffer> {
  const nonce = freshNonce();
  await pageHeaders(headers, request, loadContext, nonce);
  const body = bodyFor(copy, request, headers, nonce);
  headers.set("Content-Length", String(body.length));
  return body;
}
