// The production server: one process, one SQLite file. Express serves the built assets, answers
// /api from the API table and hands every other request to Remix, with the caller's address for
// rate limits.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const root = path.dirname(fileURLToPath(import.meta.url));
const build = await import(path.join(root, "build/server/index.js"));
const { apiMiddleware, booted, refuseCrossSiteWrites, storePageCache, sweep } = build.entry.module;

// A configuration the store must not run with (server/config.ts ConfigError) is one paragraph
// for the deployer, not a stack trace.
const { ctx, report } = await booted().catch((error) => {
  if (error?.name !== "ConfigError") throw error;
  console.error(`The store cannot start: ${error.message}`);
  process.exit(1);
});
const { config } = ctx;

const app = express();
app.disable("x-powered-by");
if (config.trustProxy) app.set("trust proxy", true);

// Drop day: the public pages come from one cache for everyone, the visitor's own parts filled in
// per answer (decision 0014). First, because it compresses its own copies once; it only answers
// GET and HEAD, so the cross-site write check has nothing to guard here.
app.use(storePageCache(build));

app.use(compression());

// Fingerprinted build assets never change; everything else in public/ gets a short cache.
app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "build/client"), { maxAge: "1h" }));

app.use(refuseCrossSiteWrites(config));

// The caller's address (from X-Forwarded-For only under TRUST_PROXY), for the API and Remix alike.
const loadContext = (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" });

// The API is a table, not pages: one lookup answers /api/*, REST and tRPC, without Remix's route
// matching (server/api/). After the Origin check, which guards its writes too.
app.use("/api", apiMiddleware(loadContext));

app.all(
  "*",
  createRequestHandler({
    build,
    mode: "production",
    getLoadContext: loadContext,
  }),
);

const host = process.env.HOST || "0.0.0.0";
const server = app.listen(config.port, host, () => {
  const url = `http://localhost:${config.port}`;
  console.log(`Store ready on ${url} (database: ${config.databaseFile})`);
  console.log(
    config.payments.mode === "test"
      ? "Payments: TEST MODE — no card is charged. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments."
      : `Payments: Stripe${config.payments.webhookSecret ? "" : " (STRIPE_WEBHOOK_SECRET is not set: Stripe's webhook is refused)"}.`,
  );
  if (report.migrations.length) console.log(`Applied migrations: ${report.migrations.join(", ")}`);
  if (report.seeded) console.log("Seeded the demo catalogue and default settings.");
  if (report.adminCreated) console.log(`Created the admin user "${report.adminCreated}".`);
  if (config.admin.usingDefaults) {
    console.log(
      `Sign in at ${url}/admin/login as "${config.admin.username}" with the development password ` +
        `"${config.admin.password}". Set ADMIN_USERNAME and ADMIN_PASSWORD before going live.`,
    );
  } else {
    console.log(`Sign in at ${url}/admin/login with ADMIN_USERNAME and ADMIN_PASSWORD.`);
  }
});

// Expired holds back on the shelf, owed e-mails and labels finished (server/services/sweeper.ts).
const sweeper = setInterval(() => void sweep(ctx), 30_000);
sweeper.unref();

// Let in-flight requests (a payment confirmation, say) finish before exiting.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(async () => {
      await ctx.db.destroy();
      process.exit(0);
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
