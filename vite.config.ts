import { AsyncLocalStorage } from "node:async_hooks";
import { vitePlugin as remix } from "@remix-run/dev";
// Remix's own hook for a dev load context (its Cloudflare proxy plugin sets it the same way).
import { setRemixDevLoadContext } from "@remix-run/dev/dist/vite/plugin.js";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { denyImports } from "vite-env-only";
import tsconfigPaths from "vite-tsconfig-paths";
import { ConfigError, loadConfig } from "#server/config";
import { clientAddressOf } from "#server/http/requests/forwarded";
import { stripInternalHeaders } from "#server/http/requests/internal-headers";
import { refuseCrossSiteWrites } from "#server/http/requests/origin";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const buildOnly = (plugins: unknown): Plugin[] => [plugins].flat(2).map((plugin) => ({ ...(plugin as Plugin), apply: "build" as const }));

// `npm run dev` has no server.js: it refuses the configuration `npm start` refuses, with the same
// message, takes off the internal header names first as server.js does, puts the same cross-site
// check in front of Remix, and gives Remix the caller's address for rate limits as server.js does
// (TRUST_PROXY's hop rule, server/http/requests/forwarded.ts).
const callers = new AsyncLocalStorage<string>();
const devServerGuards: Plugin = {
  name: "store-dev-server-guards",
  apply: "serve",
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      stripInternalHeaders(req);
      next();
    });
    try {
      const config = loadConfig();
      server.middlewares.use((req, _res, next) => callers.run(clientAddressOf(req, config.trustProxy) ?? "unknown", next));
      setRemixDevLoadContext(() => ({ clientIp: callers.getStore() ?? "local" }));
      server.middlewares.use(refuseCrossSiteWrites(config));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(`The store cannot start: ${error.message}`);
      process.exit(1);
    }
    // Nor does it run the fulfilment job that server.js starts (decision 0027): start it here.
    server.httpServer?.once("listening", () => {
      server
        .ssrLoadModule("/server/dev-jobs.ts")
        .then((jobs) => (jobs as { startDevJobs: () => Promise<void> }).startDevJobs())
        .catch((error: unknown) => console.error("The fulfilment job could not start:", error));
    });
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  // `npm run dev` listens where `npm start` would (PORT, HOST). A port asked for is kept or the start
  // fails, rather than moving to the next free one behind the developer's back. Without HOST the dev
  // server stays on localhost: it serves the sources, so it is not offered to the LAN unasked.
  // No CORS middleware: it would answer every OPTIONS itself, before the API table (which answers 204 with Allow).
  server: {
    port: Number(process.env.PORT) || 3000,
    strictPort: Boolean(process.env.PORT),
    host: process.env.HOST || undefined,
    cors: false,
  },
  // The dev dependency scan follows loader imports into server-only packages; the browser never
  // loads them (Remix strips loaders from client code), so they are kept out of the client pre-bundle.
  optimizeDeps: {
    exclude: ["@node-rs/argon2", "better-sqlite3", "sharp", "stripe", "shippo", "postmark", "pdf-lib", "sanitize-html", "kysely"],
  },
  build: {
    // The server build runs on Node 20 only: left at Vite's browser default, class private fields
    // were lowered to WeakMap helpers (`__privateGet`) on paths every request takes.
    target: isSsrBuild ? "node20" : undefined,
    rollupOptions: {
      // Remix makes a browser module for every route, so a route with nothing for the browser (a
      // resource route) ships an empty one (remix-run/remix#9055). Such doors are served outside
      // Remix (decision 0033); a new one fails the build here rather than ship an empty chunk.
      onwarn(warning, warn) {
        if (warning.code === "EMPTY_BUNDLE") {
          throw new Error(`${warning.message}: a route with nothing for the browser belongs outside Remix (decision 0033).`);
        }
        warn(warning);
      },
    },
  },
  plugins: [
    // Server code must never reach the browser; only the contracts (zod schemas) may. Checked at
    // build time only: in dev, Remix's CSS crawl walks loader imports as "client" and trips it.
    ...buildOnly(
      denyImports({
        client: {
          specifiers: ["better-sqlite3", "@node-rs/argon2", "sharp", "stripe", "shippo", "postmark", /^node:/],
          files: ["server/!(contracts)/**", "server/*.ts", "db/**"],
        },
      }),
    ),
    devServerGuards,
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
  ],
}));
