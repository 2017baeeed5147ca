// Issue 15 part 3: what a storefront page costs in JavaScript, from the built manifest (brotli,
// the bytes the store sends), and the admin's libraries nowhere outside /admin (decision 0029).
import assert from "node:assert/strict";
import { BASE_URL, describe, test } from "./browser";
import {
  ADMIN_LIBRARY_MARKERS,
  brotliBytes,
  JS_BUDGET_BYTES,
  librariesIn,
  pageJsBytes,
  pageModules,
  readManifest,
} from "./support/js-budget";

const STOREFRONT: Record<string, string> = {
  "/": "routes/_index",
  "/countdown": "routes/countdown",
  "/store": "routes/store._index",
  "/store/:id": "routes/store.$productId",
  "/cart": "routes/cart",
  "/checkout": "routes/checkout",
  "/waiting-room": "routes/waiting-room",
  "/about": "routes/about",
  "/support": "routes/support",
};
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

describe("JavaScript per page", () => {
  test("the manifest's modules are the page's modulepreload links", async () => {
    const manifest = readManifest();
    for (const [path, routeId] of [
      ["/", "routes/_index"],
      ["/store", "routes/store._index"],
    ] as const) {
      const html = await (await fetch(new URL(path, BASE_URL))).text();
      const preloaded = [...html.matchAll(/<link rel="modulepreload(?:-later)?"[^>]*? href="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(preloaded.sort(), pageModules(manifest, routeId).sort(), path);
    }
  });

  for (const [path, routeId] of Object.entries(STOREFRONT)) {
    test(`${path} loads at most ${kB(JS_BUDGET_BYTES)} of compressed JavaScript`, () => {
      const manifest = readManifest();
      const bytes = pageJsBytes(routeId, manifest);
      const biggest = pageModules(manifest, routeId)
        .map((url) => [url, brotliBytes(url)] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([url, size]) => `${url} ${kB(size)}`);
      assert.ok(bytes <= JS_BUDGET_BYTES, `${path}: ${kB(bytes)} brotli; biggest: ${biggest.join(", ")}`);
    });
  }

  test("the admin's libraries load under /admin and nowhere else", () => {
    const manifest = readManifest();
    // The markers must be found where the libraries are, or this test could never fail.
    assert.deepEqual(librariesIn(pageModules(manifest, "routes/admin._index")), Object.keys(ADMIN_LIBRARY_MARKERS).sort());
    const outside = Object.values(manifest.routes).filter((route) => !route.id.startsWith("routes/admin"));
    assert.ok(outside.length > 10);
    for (const route of outside) {
      assert.deepEqual(librariesIn(pageModules(manifest, route.id)), [], `${route.id} loads an admin library`);
      // The sign-in screen (admin_.login) is also /auth's: a form, not an admin widget.
      assert.deepEqual(
        pageModules(manifest, route.id).filter((url) => /\/assets\/admin(?!_\.login)/.test(url)),
        [],
        `${route.id} loads an admin module`,
      );
    }
  });
});
