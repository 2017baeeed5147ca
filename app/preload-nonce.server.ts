import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

/*
 * Two rewrites of the HTML Remix's <Scripts nonce> renders, made as the page leaves the server.
 *
 * 1. Remix puts the nonce on its scripts but not on its <link rel="modulepreload"> tags, which a
 *    'strict-dynamic' policy then refuses (decision 0028). The server adds it.
 * 2. A page's JavaScript is fetched after the first paint, not with it (decision 0031; which pages:
 *    `scriptsStart` below): the
 *    modulepreload links and Remix's module script are sent inert (`rel="modulepreload-later"`,
 *    `type="module-later"`, which browsers ignore), and `hydrateAfterPaint` in root.tsx turns them
 *    back on after the `load` event (or the visitor's first key press or touch). Sent live, 20-odd
 *    modules (~115 kB) shared the phone's bandwidth with the CSS, the fonts and the hero image and
 *    held the first paint; every page works without JavaScript, so nothing waits for it. The
 *    elements stay where React hydrates them (only an attribute differs, which hydration ignores).
 */
const PRELOAD = '<link rel="modulepreload"';
export const LATER_PRELOAD = '<link rel="modulepreload-later"';
const moduleScript = (nonce: string) => `<script nonce="${nonce}" type="module"`;
export const laterModuleScript = (nonce: string) => `<script nonce="${nonce}" type="module-later"`;

/*
 * When a page's JavaScript starts (decision 0031):
 * - "load": the pages a visitor reads before acting (the landing, the countdown, the shelf, a
 *   product, /about, the waiting room), where everything before hydration is a link or a native
 *   form: after the load and the first paint.
 * - "paint": the storefront's form pages (checkout, bag, support): at the first paint, before the
 *   images and the load, so the hero text is not held by the scripts and a visitor who starts
 *   typing finds the page live about as soon as before.
 * - "now": everything else (sign-in, the admin, whose controls are JavaScript): with the page.
 */
export type ScriptsStart = "load" | "paint" | "now";
const AFTER_LOAD = /^\/(?:countdown|about|waiting-room|store(?:\/[^/]+)?)?\/?$/;
const AT_PAINT = /^\/(?:checkout|cart|support)\/?$/;
export const scriptsStart = (pathname: string): ScriptsStart =>
  AFTER_LOAD.test(pathname) ? "load" : AT_PAINT.test(pathname) ? "paint" : "now";
const AT_PAINT_TYPE = "module-at-paint";

export function withPreloadNonce(html: string, nonce: string, when: ScriptsStart = "load"): string {
  const withNonce = html.replaceAll(PRELOAD, `${when === "now" ? PRELOAD : LATER_PRELOAD} nonce="${nonce}"`);
  if (when === "now") return withNonce;
  const inert = when === "load" ? laterModuleScript(nonce) : `<script nonce="${nonce}" type="${AT_PAINT_TYPE}"`;
  return withNonce.replaceAll(moduleScript(nonce), inert);
}

// How many characters at the end of `text` could begin a rewritten tag cut by the chunk boundary.
function partialTail(text: string, patterns: string[]): number {
  const longest = Math.max(...patterns.map((pattern) => pattern.length));
  for (let n = Math.min(longest - 1, text.length); n > 0; n--) {
    const tail = text.slice(-n);
    if (patterns.some((pattern) => pattern.startsWith(tail))) return n;
  }
  return 0;
}

/** The same, on a streamed page: a tag cut between two chunks is held back until the next. */
export function preloadNonceStream(nonce: string, when: ScriptsStart = "load"): Transform {
  const decoder = new StringDecoder("utf8");
  const patterns = [PRELOAD, moduleScript(nonce)];
  let carry = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = carry + decoder.write(chunk);
      const keep = partialTail(text, patterns);
      carry = text.slice(text.length - keep);
      done(null, withPreloadNonce(text.slice(0, text.length - keep), nonce, when));
    },
    flush(done) {
      done(null, withPreloadNonce(carry + decoder.end(), nonce, when));
    },
  });
}
