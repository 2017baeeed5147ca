import type { BootReport } from "./boot";
import type { Config } from "./config";

/**
 * What the operator reads once the store listens: where, how payments run, what start-up did and
 * how to sign in. Printed once, by the single process or by the primary of the workers.
 */
export function startupBanner(config: Config, report: BootReport, workers = 1): string[] {
  const url = `http://localhost:${config.port}`;
  const lines = [`Store ready on ${url} (database: ${config.databaseFile}${workers > 1 ? `, ${workers} workers` : ""})`];
  lines.push(
    config.payments.mode === "test"
      ? "Payments: TEST MODE — no card is charged. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments."
      : `Payments: Stripe${config.payments.webhookSecret ? "" : " (STRIPE_WEBHOOK_SECRET is not set: Stripe's webhook is refused)"}.`,
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
