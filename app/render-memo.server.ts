import type { EntryContext } from "@remix-run/node";
import { prepareBrotli } from "#server/http/cache/brotli-splice";
import { bodyWithNonce } from "#server/http/cache/nonce-body";
import { nonceCopy, type NonceCopy } from "#server/http/cache/nonce-splice";

/**
 * Personal pages rendered once per distinct data (decision 0018). A route whose `handle` has
 * `sameDataSamePage: true` promises that its HTML is a pure function of the URL and the loaders'
 * data: nothing from the clock, randomness or the request other than through a loader. On drop day
 * every shopper's bag holds the same one item, so /checkout is the same page for all of them: the
 * loaders still run for each request (the bag, the visitor, their cookies), but React renders and
 * the compressor compresses once per process for each distinct data.
 */
export interface RenderMemoHandle {
  sameDataSamePage?: boolean;
  /**
   * The query parameters the page reads (none unless named). A request carrying any other is
   * rendered for itself alone (decision 0039): a form with no action of its own posts to the
   * page's address, query included, so the memo cannot hand one visitor's query to another, and
   * a stranger's made-up queries must not fill it.
   */
  query?: readonly string[];
}

// Rendered with the stand-in nonce; each answer gets its own (decision 0028).
type Copy = NonceCopy;

/** About 60 kB a copy with its compressed forms. */
const MAX_COPIES = 64;
const copies = new Map<string, Promise<Copy>>();

/** The memo's key for this render, or null when it must be rendered for this request alone. */
export function renderMemoKey(request: Request, status: number, context: EntryContext): string | null {
  if ((request.method !== "GET" && request.method !== "HEAD") || status !== 200) return null;
  const { actionData, errors, loaderData, matches } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const leaf = matches.at(-1)?.route.id;
  const handle = leaf ? (context.routeModules[leaf]?.handle as RenderMemoHandle | undefined) : undefined;
  return memoKeyOf(new URL(request.url), handle, loaderData);
}

/**
 * The key of a page at `url` whose leaf route has `handle`, from its loaders' data by route id (as
 * Remix's loaderData holds it): the same for the render and for the door that answers a kept copy
 * ahead of Remix (memo-door.server.ts).
 */
export function memoKeyOf(url: URL, handle: RenderMemoHandle | undefined, loaderData: Record<string, unknown>): string | null {
  if (!handle?.sameDataSamePage) return null;
  const { pathname, search, searchParams } = url;
  for (const name of searchParams.keys()) if (!handle.query?.includes(name)) return null;
  // A flash is one visitor's, shown once: its page would only push shared ones out.
  if (hasToast(loaderData.root)) return null;
  return JSON.stringify([pathname, search, loaderData]);
}

const hasToast = (root: unknown) =>
  typeof root === "object" && root !== null && "visitor" in root && Boolean((root.visitor as { toast?: unknown } | null)?.toast);

/** The copy for `key`, rendered by `render` the first time (concurrent first requests share that render). */
export async function memoisedRender(key: string, render: () => Promise<Buffer>): Promise<Copy> {
  let copy = heldCopy(key);
  if (copy) return copy;
  // The brotli form is made before the first answer: the memo's pages are few and sent often.
  copy = render()
    .then(nonceCopy)
    .then(async (made) => {
      await prepareBrotli(made);
      return made;
    });
  copies.set(key, copy);
  if (copies.size > MAX_COPIES) copies.delete(copies.keys().next().value!);
  copy.catch(() => copies.delete(key));
  return copy;
}

/** The copy for `key` if one was made (or is being made), without rendering one. */
export function heldCopy(key: string): Promise<Copy> | undefined {
  const copy = copies.get(key);
  if (copy) {
    // Most recently used last: the oldest goes first when the memo is full.
    copies.delete(key);
    copies.set(key, copy);
  }
  return copy;
}

/** Test hook: how many distinct pages the memo holds. */
export const renderMemoSize = () => copies.size;

/**
 * The copy's bytes for this request's Accept-Encoding, with this answer's nonce: brotli or gzip
 * kept around the nonces (decisions 0028, 0032), since compressing each answer is what the memo is
 * there to avoid.
 */
export function bodyFor(copy: Copy, request: Request, headers: Headers, nonce: string): Buffer {
  headers.append("Vary", "Accept-Encoding");
  const { body, encoding } = bodyWithNonce(copy, nonce, request.headers.get("Accept-Encoding") ?? undefined);
  if (encoding) headers.set("Content-Encoding", encoding);
  return body;
}
