import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "../db/client";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Who takes the money. "stripe": both Stripe keys are set. "test": neither is, and the built-in
 * test processor takes test cards and charges nobody, which every page then says.
 */
export type PaymentsConfig = { mode: "test" } | { mode: "stripe"; secretKey: string; publishableKey: string; webhookSecret: string | null };

/** Everything the environment decides, read once. `.env.example` documents each variable. */
export interface Config {
  production: boolean;
  port: number;
  dataDir: string;
  /** The database DATABASE_URL names (and DATABASE_POOL_SIZE sizes, on PostgreSQL). */
  database: DatabaseTarget;
  uploadsDir: string;
  sessionSecret: string;
  seedOnEmpty: boolean;
  admin: { username: string; password: string; email: string; usingDefaults: boolean };
  brand: { name: string; socialHandle: string; supportEmail: string };
  /**
   * TRUST_PROXY: how many reverse proxies stand between the store and the internet (0: none). The
   * client's address, scheme and host are read from what the outermost of them wrote (decision 0037).
   */
  trustProxy: number;
  /** The store's own origin from PUBLIC_URL (behind a proxy that rewrites the host); null: each request's. */
  publicUrl: string | null;
  postmark: { serverToken: string | null; from: string; broadcastStream: string };
  payments: PaymentsConfig;
  shippo: { apiKey: string | null };
  /** How long a checkout holds its units while the buyer pays. */
  holdMinutes: number;
}

export const DEFAULT_ADMIN = { username: "admin", password: "change-me-now", email: "admin@example.com" };

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return !["0", "false", "no", "off"].includes(value.toLowerCase());
}

/** Enough for a CDN, a load balancer and nginx; more is a typo, not a network. */
const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY as a hop count: unset or false trusts no proxy, true (or 1) the one nginx in front,
 * N the N proxies nearest the store. Anything else is refused: a guessed hop count either lets
 * clients write their own address or puts every shopper behind one.
 */
export function proxyHopsFrom(raw: string | undefined): number {
  const value = raw?.trim().toLowerCase() ?? "";
  if (["", "0", "false", "no", "off"].includes(value)) return 0;
  if (["true", "yes", "on"].includes(value)) return 1;
  const hops = /^\d+$/.test(value) ? Number(value) : NaN;
  if (hops >= 1 && hops <= MAX_PROXY_HOPS) return hops;
  throw new ConfigError(
    `TRUST_PROXY must be true (one reverse proxy in front of the store, such as nginx), the number of proxies in front of it (1 to ${MAX_PROXY_HOPS}), or false; not "${raw}".`,
  );
}

/**
 * The payment mode, decided once. Half a Stripe configuration is refused rather than guessed at
 * (the checkout would show one processor's form and post it to the other). No keys behind an
 * https PUBLIC_URL is a real deployment that forgot them: it gives goods away unless the
 * deployer says PAYMENTS=test on purpose.
 */
export function paymentsFrom(env: Record<string, string | undefined>): PaymentsConfig {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || null;
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY?.trim() || null;
  const requested = env.PAYMENTS?.trim().toLowerCase() || null;
  if (requested !== null && requested !== "test") {
    throw new ConfigError(
      `PAYMENTS is "${env.PAYMENTS}", but the only value it takes is PAYMENTS=test (test mode on purpose). Unset it, or set both STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments.`,
    );
  }
  if (secretKey && !publishableKey) {
    throw new ConfigError(
      "STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY is not. Stripe needs both: set STRIPE_PUBLISHABLE_KEY (from the same Stripe account) to take real payments, or unset STRIPE_SECRET_KEY to run the store in test mode, where no card is charged.",
    );
  }
  if (publishableKey && !secretKey) {
    throw new ConfigError(
      "STRIPE_PUBLISHABLE_KEY is set but STRIPE_SECRET_KEY is not. Stripe needs both: set STRIPE_SECRET_KEY (from the same Stripe account) to take real payments, or unset STRIPE_PUBLISHABLE_KEY to run the store in test mode, where no card is charged.",
    );
  }
  if (secretKey && publishableKey) {
    if (requested === "test") {
      throw new ConfigError(
        "PAYMENTS=test asks for test mode, but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set. Unset PAYMENTS to take payments with Stripe, or unset both keys to run the store in test mode.",
      );
    }
    return { mode: "stripe", secretKey, publishableKey, webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || null };
  }
  if (originFrom(env.PUBLIC_URL)?.startsWith("https:") && requested !== "test") {
    throw new ConfigError(
      `PUBLIC_URL is ${env.PUBLIC_URL?.trim()}, a real deployment, but STRIPE_SECRET_KEY is not set: the store would take the public test card 4242 4242 4242 4242 and give the goods away. ` +
        "Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments, or set PAYMENTS=test to run this deployment in test mode on purpose (every page then says no card is charged).",
    );
  }
  return { mode: "test" };
}

// A malformed PUBLIC_URL falls back to the request rather than mailing broken links.
function originFrom(url: string | undefined): string | null {
  if (!url?.trim()) return null;
  try {
    const { origin } = new URL(url.trim());
    // A URL that is not http(s) (file:, mailto:) has no origin to serve from.
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The database from DATABASE_URL: a postgres:// or postgresql:// URL names a PostgreSQL database;
 * a path, a sqlite:/file: URL or nothing an SQLite file. Any other URL is refused rather than read
 * as a relative path (which made a directory named "postgres:"). A scheme is two letters or more,
 * so a Windows drive (C:\data\store.db) is still a path. Only the scheme is quoted back: the rest
 * of a URL may hold a password.
 */
export function databaseFrom(env: Record<string, string | undefined>, dataDir: string): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (!url) return { engine: "sqlite", file: path.join(dataDir, "store.db") };
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") {
    return { engine: "postgres", url, poolSize: poolSizeFrom(env.DATABASE_POOL_SIZE) };
  }
  if (scheme && scheme !== "sqlite" && scheme !== "file") {
    throw new ConfigError(
      `DATABASE_URL must be a path to an SQLite file (or a sqlite:/file: URL) or a postgres:// URL; ${scheme}:// is not supported.`,
    );
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/i, "");
  if (!file) throw new ConfigError(`DATABASE_URL "${url}" names no file: give a path to an SQLite file, such as sqlite:./data/store.db.`);
  return { engine: "sqlite", file: file === ":memory:" ? file : path.resolve(file) };
}

/** Connections per process to PostgreSQL (each worker of `npm start` has its own pool). */
const DEFAULT_POOL_SIZE = 10;

function poolSizeFrom(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_POOL_SIZE;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 1) {
    throw new ConfigError(`DATABASE_POOL_SIZE must be a whole number of connections (1 or more), not "${raw}".`);
  }
  return size;
}

/**
 * A secret for signing cookies. When none is configured, one is made once and kept in the data
 * directory, so a fresh `npm start` is safe and restarts do not sign everybody out.
 */
function sessionSecretFor(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  const file = path.join(dataDir, ".session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/**
 * Where the data lives, read alone: maintenance commands (`npm run db:backup`) need the database
 * without the rest of the configuration's checks and side effects (payments, a new secret file).
 */
export function dataLocation(env: NodeJS.ProcessEnv = process.env): { dataDir: string; database: DatabaseTarget } {
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  return { dataDir, database: databaseFrom(env, dataDir) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // First, so a refused configuration leaves nothing behind (no data folder, no secret file).
  const payments = paymentsFrom(env);
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  // Also first, for the same reason: nothing is created for a DATABASE_URL the store refuses.
  const database = databaseFrom(env, dataDir);
  const trustProxy = proxyHopsFrom(env.TRUST_PROXY);
  const username = env.ADMIN_USERNAME || DEFAULT_ADMIN.username;
  const password = env.ADMIN_PASSWORD || DEFAULT_ADMIN.password;
  return {
    production: env.NODE_ENV === "production",
    port: Number(env.PORT) || 3000,
    dataDir,
    database,
    // Several instances share one folder (a network mount): UPLOADS_DIR names it (docs/deploy.md).
    uploadsDir: env.UPLOADS_DIR ? path.resolve(env.UPLOADS_DIR) : path.join(dataDir, "uploads"),
    sessionSecret: sessionSecretFor(env, dataDir),
    seedOnEmpty: flag(env.SEED_ON_EMPTY, true),
    admin: {
      username,
      password,
      email: env.ADMIN_EMAIL || DEFAULT_ADMIN.email,
      usingDefaults: password === DEFAULT_ADMIN.password,
    },
    brand: {
      name: env.BRAND_NAME || "Legacy",
      socialHandle: env.SOCIAL_HANDLE || "legacy.worn",
      supportEmail: env.SUPPORT_EMAIL || "support@legacy.example",
    },
    trustProxy,
    publicUrl: originFrom(env.PUBLIC_URL),
    postmark: {
      serverToken: env.POSTMARK_SERVER_TOKEN || null,
      from: env.POSTMARK_FROM || env.SUPPORT_EMAIL || "support@legacy.example",
      broadcastStream: env.POSTMARK_BROADCAST_STREAM || "broadcast",
    },
    payments,
    shippo: { apiKey: env.SHIPPO_API_KEY || null },
    holdMinutes: Number(env.CHECKOUT_HOLD_MINUTES) > 0 ? Number(env.CHECKOUT_HOLD_MINUTES) : 10,
  };
}
