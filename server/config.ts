import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Everything the environment decides, read once. `.env.example` documents each variable. */
export interface Config {
  production: boolean;
  port: number;
  dataDir: string;
  databaseFile: string;
  uploadsDir: string;
  sessionSecret: string;
  seedOnEmpty: boolean;
  admin: { username: string; password: string; email: string; usingDefaults: boolean };
  brand: { name: string; socialHandle: string; supportEmail: string };
  trustProxy: boolean;
  /** The store's own origin from PUBLIC_URL (behind a proxy that rewrites the host); null: each request's. */
  publicUrl: string | null;
  postmark: { serverToken: string | null; from: string; broadcastStream: string };
  stripe: { secretKey: string | null; publishableKey: string | null; webhookSecret: string | null };
  shippo: { apiKey: string | null };
  /** How long a checkout holds its units while the buyer pays. */
  holdMinutes: number;
}

export const DEFAULT_ADMIN = { username: "admin", password: "change-me-now", email: "admin@example.com" };

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return !["0", "false", "no", "off"].includes(value.toLowerCase());
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

function databaseFileFrom(url: string | undefined, dataDir: string): string {
  if (!url) return path.join(dataDir, "store.db");
  const file = url.replace(/^(sqlite|file):(\/\/)?/, "");
  return file === ":memory:" ? file : path.resolve(file);
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  const username = env.ADMIN_USERNAME || DEFAULT_ADMIN.username;
  const password = env.ADMIN_PASSWORD || DEFAULT_ADMIN.password;
  return {
    production: env.NODE_ENV === "production",
    port: Number(env.PORT) || 3000,
    dataDir,
    databaseFile: databaseFileFrom(env.DATABASE_URL, dataDir),
    uploadsDir: path.join(dataDir, "uploads"),
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
    trustProxy: flag(env.TRUST_PROXY, false),
    publicUrl: originFrom(env.PUBLIC_URL),
    postmark: {
      serverToken: env.POSTMARK_SERVER_TOKEN || null,
      from: env.POSTMARK_FROM || env.SUPPORT_EMAIL || "support@legacy.example",
      broadcastStream: env.POSTMARK_BROADCAST_STREAM || "broadcast",
    },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || null,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY || null,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    },
    shippo: { apiKey: env.SHIPPO_API_KEY || null },
    holdMinutes: Number(env.CHECKOUT_HOLD_MINUTES) > 0 ? Number(env.CHECKOUT_HOLD_MINUTES) : 10,
  };
}
