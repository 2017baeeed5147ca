import type { DatabaseTarget } from "#db/client";
import type { BootReport } from "./boot";
import { paymentModeName, type Config } from "./config";

/**
 * The database, as an operator may read it in a log: the SQLite file, or PostgreSQL's host, port
 * and database name. Never the URL itself, which may hold a password.
 */
export function describeDatabase(target: DatabaseTarget): string {
  if (target.engine === "sqlite") return target.file;
  try {
    // WHATWG URL refuses credentials without a host (postgres://user:pw@/db?host=/run/postgresql).
    const url = new URL(target.url.replace(/@\//, "@localhost/"));
    // A Unix socket is given as ?host=/run/postgresql; libpq's defaults otherwise.
    const host = url.searchParams.get("host") || decodeURIComponent(url.hostname) || "localhost";
    const port = url.searchParams.get("port") || url.port || "5432";
    const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || decodeURIComponent(url.username) || "postgres";
    return `PostgreSQL ${host}:${port}, database ${database}`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

/**
 * What the operator reads once the store listens: where, how payments run, what start-up did and
 * how to sign in. Printed once, by the single process or by the primary of the workers.
 */
export function startupBanner(config: Config, report: BootReport, workers = 1): string[] {
  const url = `http://localhost:${config.port}`;
  const lines = [`Store ready on ${url} (database: ${describeDatabase(config.database)}${workers > 1 ? `, ${workers} workers` : ""})`];
  const webhook =
    config.payments.mode === "stripe" && !config.payments.webhookSecret
      ? " (STRIPE_WEBHOOK_SECRET is not set: Stripe's webhook is refused)"
      : "";
  lines.push(
    {
      test: "Payments: TEST MODE — no card is charged. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments.",
      "stripe-test": `Payments: Stripe TEST MODE (test keys) — no card is charged; orders are test orders. Set the live keys (sk_live_…, pk_live_…) to take real payments${webhook}.`,
      "stripe-live": `Payments: Stripe, live${webhook}.`,
    }[paymentModeName(config)],
  );
  if (report.migrations.length) lines.push(`Applied migrations: ${report.migrations.join(", ")}`);
  if (report.seeded) lines.push("Seeded the demo catalogue and default settings.");
  if (report.adminCreated) lines.push(`Created the admin user "${report.adminCreated}".`);
  if (config.admin.usingDefaults) {
    lines.push(
      `Sign in at ${url}/admin/login as "${config.admin.username}" with the development password ` +
        `"${config.admin.password}". Set ADMIN_USERNAME and ADMIN_PASSWORD before going live.`,
    );
  } else {
    lines.push(`Sign in at ${url}/admin/login with ADMIN_USERNAME and ADMIN_PASSWORD.`);
  }
  return lines;
}
