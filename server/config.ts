import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export class ConfigError extends Error { constructor(message: string) { super(message); this.name = "ConfigError"; } }

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

/**
 * The SQLite file from DATABASE_URL: a path, or a sqlite:/file: URL. Any other URL is refused
 * rather than read as a relative path (which made a directory named "postgres:"). A scheme is
 * two letters or more, so a Windows drive (C:\data\store.db) is still a path. Only the scheme is
 * quoted back: the rest of a URL may hold a password.
 */
function databaseFileFrom(url: string | undefined, dataDir: string): string {
  if (!url) return path.join(dataDir, "store.db");
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme && scheme !== "sqlite" && scheme !== "file") {
    const yet = scheme === "postgres" || scheme === "postgresql" ? " yet" : "";
    throw new ConfigError(`DATABASE_URL must be a path to an SQLite file (or a sqlite:/file: URL); ${scheme}:// is not supported${yet}.`);
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/i, "");
  if (!file) throw new ConfigError(`DATABASE_URL "${url}" names no file: give a path to an SQLite file, such as sqlite:./data/store.db.`);
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
