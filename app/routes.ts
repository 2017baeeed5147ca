import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

// Doors that are not pages: server.js answers them ahead of Remix in production, so Remix makes no
// (empty) browser module for them (decision 0033). `npm run dev` has no server.js: there they are routes.
const SERVED_BY_SERVER_JS = ["routes/api.$.ts", "routes/healthz.ts", "routes/readyz.ts", "routes/uploads.$.ts"];

export default flatRoutes({
  ignoredRouteFiles: process.env.NODE_ENV === "production" ? SERVED_BY_SERVER_JS : [],
}) satisfies RouteConfig;
