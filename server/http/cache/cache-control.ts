/**
 * Every Cache-Control value the store sends, named for who may keep the answer and for how long.
 * Written out here and nowhere else (eslint.config.js refuses a spelled-out value elsewhere), so a
 * change of policy is one line and two doors never disagree about the same kind of answer.
 */

/** Kept by no cache, the browser's included: answers that are stale the moment they are sent. */
export const NO_STORE = "no-store";

/** One caller's own answer (signed in, or a browser's own bag): no cache keeps it. */
export const PRIVATE_NO_STORE = "private, no-store";

/**
 * A public page answered to a visitor with a cookie: it holds their holes (bag, name, flash), so
 * only their browser keeps it, and asks again (a 304 at best) before showing it.
 */
export const PERSONAL_PAGE = "private, no-cache";

/**
 * A cookieless public page: a CDN may keep it a second and serve it stale a few more while it asks,
 * so stock shown is never much older than the page cache's own second (decision 0014).
 */
export const SHARED_PAGE = "public, s-maxage=1, stale-while-revalidate=5";

/** Public settings every landing visit asks for: an admin's change still shows within seconds. */
export const BRIEFLY_PUBLIC = "public, max-age=10";

/** A content-derived name (a build asset, an upload): its bytes never change, so kept a year. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** The rest of public/ (favicon, manifest): names that stay while their bytes change; express.static's maxAge. */
export const PUBLIC_FILE_MAX_AGE = "1h";

/** The header itself, for the many doors whose answer nobody should keep. */
export const NO_STORE_HEADERS = { "Cache-Control": NO_STORE } as const;

/** Whether a shared cache (ours included) may keep an answer that says this. */
export function sharedCacheMayKeep(cacheControl: string | null): boolean {
  return !/private|no-store/i.test(cacheControl ?? "");
}
