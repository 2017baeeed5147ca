import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type * as RemixRouter from "@remix-run/router";

// The server's copy: node loads the CommonJS build, the one patches/ changes (decision 0059).
const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof RemixRouter;

const routes = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "store", path: "store" },
      { id: "product", path: "store/:productId" },
      { id: "order", path: "orders/:token" },
      { id: "splat", path: "*" },
    ],
  },
];

const leaf = (pathname: string) => {
  const matches = router.matchRoutes(routes, pathname);
  const last = matches?.at(-1);
  return last ? { id: last.route.id, params: last.params } : null;
};

describe("the patched Remix packages", () => {
  it("are the ones installed (npm install runs patch-package)", () => {
    for (const file of ["@remix-run/router/dist/router.cjs.js", "@remix-run/server-runtime/dist/server.js"]) {
      expect(readFileSync(require.resolve(file), "utf8")).toContain("Patched (decision 0059)");
    }
    // The browser's copy (ESM, what Vite bundles) and the CommonJS one alike.
    for (const file of ["@remix-run/react/dist/esm/routes.js", "@remix-run/react/dist/routes.js"]) {
      expect(readFileSync(require.resolve(file), "utf8")).toContain("Patched (decision 0067)");
    }
  });

  it("match each path to its route and its own parameters, again and again", () => {
    for (let round = 0; round < 3; round++) {
      expect(leaf("/")).toEqual({ id: "home", params: {} });
      expect(leaf("/store")).toEqual({ id: "store", params: {} });
      expect(leaf("/STORE/")).toEqual({ id: "store", params: {} });
      expect(leaf(`/store/${round + 1}`)).toEqual({ id: "product", params: { productId: String(round + 1) } });
      expect(leaf("/orders/abc")).toEqual({ id: "order", params: { token: "abc" } });
      expect(leaf("/no/such/page")).toEqual({ id: "splat", params: { "*": "no/such/page" } });
    }
  });

  it("match a route table of its own, not one matched before", () => {
    expect(leaf("/store")?.id).toBe("store");
    const other = [{ id: "only", path: "/store" }];
    expect(router.matchRoutes(other, "/store")?.at(-1)?.route.id).toBe("only");
    expect(router.matchRoutes(other, "/")).toBeNull();
  });

  it("match a pattern whatever was matched with it before", () => {
    expect(router.matchPath("/store/:productId", "/store/7")?.params).toEqual({ productId: "7" });
    expect(router.matchPath({ path: "/store/:productId", end: false }, "/store/7/extra")?.params).toEqual({ productId: "7" });
    expect(router.matchPath({ path: "/store/:productId", end: true }, "/store/7/extra")).toBeNull();
    expect(router.matchPath({ path: "/Store", caseSensitive: true }, "/store")).toBeNull();
    expect(router.matchPath({ path: "/Store" }, "/store")).not.toBeNull();
  });
});
