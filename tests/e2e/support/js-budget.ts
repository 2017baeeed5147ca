// What each page's JavaScript costs on the wire, read from the build: Remix's route manifest
// (build/client/assets/manifest-*.js) gives the modules a page loads at once (the entry, then root
// and every route it matches, each with its static imports: exactly the page's modulepreload
// links); the size of each is its precompressed .br file, the bytes the store sends (decision 0029).
import fs from "node:fs";
import path from "node:path";

export const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../build/client");
/** Issue 15: at most this much compressed JavaScript on a storefront page. */
export const JS_BUDGET_BYTES = 100 * 1024;

interface RouteEntry {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface RemixManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
}

export function readManifest(dir = CLIENT_DIR): RemixManifest {
  const assets = path.join(dir, "assets");
  const file = fs.readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`No Remix manifest in ${assets}: run npm run build first.`);
  const source = fs.readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as RemixManifest;
}

/** The module URLs a page of this route loads before it is interactive, in no particular order. */
export function pageModules(manifest: RemixManifest, routeId: string): string[] {
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`No route ${routeId} in the manifest.`);
  const chain: RouteEntry[] = [];
  for (let at: RouteEntry | undefined = route; at; at = at.parentId ? manifest.routes[at.parentId] : undefined) chain.unshift(at);
  const urls = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const entry of chain) for (const url of [entry.module, ...(entry.imports ?? [])]) urls.add(url);
  return [...urls];
}

/** Bytes of the brotli file the store sends for an /assets URL (the file itself when no .br is smaller). */
export function brotliBytes(url: string, dir = CLIENT_DIR): number {
  const file = path.join(dir, url);
  return fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : fs.statSync(file).size;
}

export function pageJsBytes(routeId: string, manifest = readManifest(), dir = CLIENT_DIR): number {
  return pageModules(manifest, routeId).reduce((sum, url) => sum + brotliBytes(url, dir), 0);
}

/** Text that only the admin's libraries put in a bundle (error messages survive minification). */
export const ADMIN_LIBRARY_MARKERS = {
  "@trpc/client": "TRPCClientError",
  "@tanstack/react-query": "No QueryClient set",
} as const;

export function librariesIn(urls: string[], dir = CLIENT_DIR): string[] {
  const found = new Set<string>();
  for (const url of urls) {
    const text = fs.readFileSync(path.join(dir, url), "utf8");
    for (const [library, marker] of Object.entries(ADMIN_LIBRARY_MARKERS)) if (text.includes(marker)) found.add(library);
  }
  return [...found].sort();
}
