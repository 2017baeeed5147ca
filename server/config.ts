import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { DatabaseTarget } from "#db/client";
import { LOG_LEVELS, type LogLevel } from "./observability/log";

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

/**
 * How payments run, by name (issue 27): "test", the built-in test processor; "stripe-test", Stripe
 * with test keys (sk_test_…, rk_test_…), where Stripe charges no card either; "stripe-live", real
 * money. The start-up log, /readyz and every page's banner name it, so it is never a guess.
 */
export type PaymentModeName = "test" | "stripe-test" | "stripe-live";

export function paymentModeName(config: { payments: PaymentsConfig }): PaymentModeName {
  const { payments } = config;
  if (payments.mode === "test") return "test";
  return /^(sk|rk)_test_/.test(payments.secretKey) ? "stripe-test" : "stripe-live";
}

/** True when no card is charged (the built-in processor or Stripe's test keys): its orders are test orders. */
export function chargesNoCard(config: { payments: PaymentsConfig }): boolean {
  return paymentModeName(config) !== "stripe-live";
}

/** Everything the environment decides, read once. `.env.example` documents each variable. */
export interface Config {
  production: boolean;
  port: number;
  dataDir: string;
  /** The database DATABASE_URL names (and DATABASE_POOL_SIZE sizes, on PostgreSQL). */
  database: DatabaseTarget;
  uploadsDir: string;
  /** SESSION_SECRET: signs every cookie, pass and link the store makes from now on. */
  sessionSecret: string;
  /**
   * SESSION_SECRET_PREVIOUS: earlier secrets, still accepted (never used to sign) while they are
   * listed, so rotating the secret voids nothing at once (decision 0061). Empty unless set.
   */
  previousSessionSecrets: readonly string[];
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
  /** The address server.js listens on (HOST). */
  host: string;
  postmark: {
    serverToken: string | null;
    from: string;
    broadcastStream: string;
    /** POSTMARK_WEBHOOK_USER and _PASSWORD; null (the webhook answers 404) unless both are set. */
    webhook: { user: string; password: string } | null;
  };
  payments: PaymentsConfig;
  shippo: {
    apiKey: string | null;
    /** Where parcels ship from (SHIP_FROM_*), a demo warehouse where unset. */
    from: ShipFromAddress;
    /** The SHIP_FROM_* variables of the street address left unset: the pre-drop checklist names them. */
    fromMissing: string[];
    /** CUSTOMS_ORIGIN_COUNTRY: where the goods were made, for customs; null: the ship-from country. */
    originCountry: string | null;
    /** SHIPPO_WEBHOOK_TOKEN: the secret in the tracking webhook's URL; null: the webhook answers 404. */
    webhookToken: string | null;
  };
  /** How long a checkout holds its units while the buyer pays. */
  holdMinutes: number;
  /** Attempts per address (an IPv4 address or an IPv6 /64) per window, for the public forms. */
  rateLimits: { loginsPerIp: number; registrationsPerIp: number; subscribesPerIp: number; checkoutsPerIp: number };
  /**
   * Prometheus metrics (decision 0048): `GET /metrics` on the store's port with
   * `Authorization: Bearer <token>` when METRICS_TOKEN is set, and/or a port of their own
   * (METRICS_PORT, on METRICS_HOST: loopback unless said). Both null: no metrics are served.
   */
  metrics: { token: string | null; port: number | null; host: string };
  /**
   * SIGTERM: /readyz answers 503 for `drainMs` while requests are still served (the balancer takes
   * the process out first), then the port closes and requests under way get `timeoutMs` to finish.
   */
  shutdown: { drainMs: number; timeoutMs: number };
  /**
   * LOG_LEVEL; LOG_FORMAT (json, or pretty through pino-pretty: npm run dev's default); and
   * LOG_CACHED_SAMPLE, the share of answers from the page cache that get a request line (0 to 1).
   */
  log: { level: LogLevel; format: "json" | "pretty"; cachedSample: number };
}

export interface ShipFromAddress {
  name: string;
  street1: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
  email: string;
}

type Env = Record<string, string | undefined>;

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
function sessionSecretFor(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
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
 * SESSION_SECRET is trimmed as each previous secret is, so the value a rotation lists in
 * SESSION_SECRET_PREVIOUS (before or after it signs) is the value that signed: a secrets file's
 * last newline once signed with the secret and was cut off the same secret once listed, and what
 * it signed stopped verifying mid-rotation. A value that came with spaces or a line break around
 * it stays accepted as it came, never used to sign, so nothing signed before this rule is voided.
 * One that is nothing but spaces is refused: it was meant to be a secret.
 */
function sessionSecretsFrom(configured: string | undefined, previous: readonly string[], dataDir: string) {
  const trimmed = configured?.trim();
  if (configured && !trimmed) {
    throw new ConfigError(
      "SESSION_SECRET is only spaces: set it to a secret (openssl rand -base64 32), or leave it unset for one kept in DATA_DIR.",
    );
  }
  const sessionSecret = sessionSecretFor(trimmed, dataDir);
  if (!configured || configured === trimmed || previous.includes(configured)) return { sessionSecret, previousSessionSecrets: previous };
  return { sessionSecret, previousSessionSecrets: Object.freeze([...previous, configured]) };
}

/** No previous secret: one shared empty list, so "the same secrets" is one comparison (cart-session.ts). */
const NO_PREVIOUS_SECRETS: readonly string[] = Object.freeze([]);

/**
 * Shorter than this, a secret is a placeholder or a typo ("changeme", half a pasted value), not a
 * key: it is refused rather than kept accepted, as METRICS_TOKEN is. SESSION_SECRET itself has no
 * such rule (stores run with short ones); a previous secret gets it because listing one keeps
 * accepting what it signed, which is worth nothing if it can be guessed.
 */
const PREVIOUS_SECRET_MIN = 16;

/**
 * A stranger's forged cookie or link is checked against every accepted secret before it is
 * refused, so each listed secret adds an HMAC to what a bad value costs. A rotation needs one
 * (two mid-way through the two-round order in docs/deploy.md); four leaves room for a rotation
 * begun before the last one's secret was dropped.
 */
export const PREVIOUS_SECRETS_MAX = 4;

/**
 * SESSION_SECRET_PREVIOUS: one or more earlier secrets, separated by commas (so a secret with a
 * comma in it cannot be listed). Each is trimmed; empty entries (a trailing comma) are ignored, a
 * repeated one counts once. A short one, or one with a space inside (two secrets meant, a comma
 * forgotten), is refused, and so is a list of more than PREVIOUS_SECRETS_MAX. The values are
 * never quoted back.
 */
export function previousSessionSecretsFrom(raw: string | undefined): readonly string[] {
  const secrets = new Set<string>();
  (raw ?? "").split(",").forEach((entry, index) => {
    const secret = entry.trim();
    if (secret === "") return;
    if (secret.length < PREVIOUS_SECRET_MIN || /\s/.test(secret)) {
      throw new ConfigError(
        `SESSION_SECRET_PREVIOUS: entry ${index + 1} must be at least ${PREVIOUS_SECRET_MIN} characters with no spaces (separate secrets with commas). ` +
          "Remove a secret too weak to keep accepting: what it signed then stops working, as when the secret is changed without a previous one.",
      );
    }
    secrets.add(secret);
  });
  if (secrets.size > PREVIOUS_SECRETS_MAX) {
    throw new ConfigError(
      `SESSION_SECRET_PREVIOUS: at most ${PREVIOUS_SECRETS_MAX} secrets, not ${secrets.size}. ` +
        "Remove the oldest: each one listed is tried on every cookie and link a stranger sends.",
    );
  }
  return secrets.size === 0 ? NO_PREVIOUS_SECRETS : Object.freeze([...secrets]);
}

/**
 * The address parcels ship from (SHIP_FROM_*), with a plausible New York warehouse as the default
 * so a Shippo test token works out of the box.
 */
export function shipFromAddress(env: Env): ShipFromAddress {
  return {
    name: env.SHIP_FROM_NAME || `${env.BRAND_NAME || "Legacy"} Fulfillment`,
    street1: env.SHIP_FROM_STREET || "220 36th St",
    city: env.SHIP_FROM_CITY || "Brooklyn",
    state: env.SHIP_FROM_STATE || "NY",
    zip: env.SHIP_FROM_ZIP || "11232",
    country: env.SHIP_FROM_COUNTRY || "US",
    phone: env.SHIP_FROM_PHONE || "+1 212 555 0100",
    email: env.SHIP_FROM_EMAIL || env.SUPPORT_EMAIL || "support@legacy.example",
  };
}

const SHIP_FROM_STREET_ADDRESS = ["SHIP_FROM_STREET", "SHIP_FROM_CITY", "SHIP_FROM_STATE", "SHIP_FROM_ZIP"] as const;

// Each variable is parsed on its own below; the rules that tie several together (payments, the
// database) run afterwards. Every message names the variable, so the store's refusal to start
// says what to change.

/** A variable as written (unset or text); `||` fallbacks below treat "" as unset, as before. */
const text = z.string().optional();

/** Turns a reader's ConfigError into the schema's issue, so every refusal comes out one way. */
function refusing<T>(read: (raw: string | undefined) => T) {
  return text.transform((raw, ctx) => {
    try {
      return read(raw);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      ctx.addIssue({ code: "custom", message: error.message });
      return z.NEVER;
    }
  });
}

/** A count of at least 1; unset or blank is `fallback()`. `of` names what is counted, where the message always did. */
function wholeNumber(name: string, fallback: () => number, of = "") {
  return refusing((raw) => {
    const trimmed = raw?.trim() ?? "";
    if (trimmed === "") return fallback();
    const value = Number(trimmed);
    if (Number.isInteger(value) && value >= 1) return value;
    throw new ConfigError(`${name} must be a whole number${of ? ` of ${of}` : ""} (1 or more), not "${trimmed}".`);
  });
}

/** Shorter than this is guessable by whoever can reach the port: refused rather than trusted. */
const METRICS_TOKEN_MIN = 16;

function metricsTokenFrom(raw: string | undefined): string | null {
  const token = raw?.trim() ?? "";
  if (token === "") return null;
  if (token.length < METRICS_TOKEN_MIN || /\s/.test(token)) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN} characters with no spaces (such as the output of \`openssl rand -hex 24\`): Prometheus sends it as "Authorization: Bearer <token>".`,
    );
  }
  return token;
}

/** A number of seconds from 0 to an hour; unset or blank is `fallback`. */
function seconds(name: string, fallback: number) {
  return refusing((raw) => {
    const trimmed = raw?.trim() ?? "";
    if (trimmed === "") return fallback;
    const value = Number(trimmed);
    if (/^\d+(\.\d+)?$/.test(trimmed) && value <= 3600) return value;
    throw new ConfigError(`${name} must be a number of seconds from 0 to 3600, such as ${fallback}, not "${trimmed}".`);
  });
}

const envSchema = z.object({
  NODE_ENV: text,
  // 0 or unset has always meant the default port; anything not a number is a typo.
  PORT: refusing((raw) => {
    if (raw === undefined || raw.trim() === "") return 3000;
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`PORT must be a port number, such as 3000, not "${raw}".`);
    return Number(raw) || 3000;
  }),
  HOST: text.transform((raw) => raw || "0.0.0.0"),
  DATA_DIR: text.transform((raw) => path.resolve(raw || "./data")),
  UPLOADS_DIR: text,
  DATABASE_URL: text,
  DATABASE_POOL_SIZE: text,
  SESSION_SECRET: text,
  SESSION_SECRET_PREVIOUS: refusing(previousSessionSecretsFrom),
  SEED_ON_EMPTY: text.transform((raw) => flag(raw, true)),
  ADMIN_USERNAME: text.transform((raw) => raw || DEFAULT_ADMIN.username),
  ADMIN_PASSWORD: text.transform((raw) => raw || DEFAULT_ADMIN.password),
  ADMIN_EMAIL: text.transform((raw) => raw || DEFAULT_ADMIN.email),
  BRAND_NAME: text.transform((raw) => raw || "Legacy"),
  SOCIAL_HANDLE: text.transform((raw) => raw || "legacy.worn"),
  SUPPORT_EMAIL: text,
  TRUST_PROXY: refusing(proxyHopsFrom),
  PUBLIC_URL: text,
  PAYMENTS: text,
  STRIPE_SECRET_KEY: text,
  STRIPE_PUBLISHABLE_KEY: text,
  STRIPE_WEBHOOK_SECRET: text,
  POSTMARK_SERVER_TOKEN: text.transform((raw) => raw || null),
  POSTMARK_FROM: text,
  POSTMARK_BROADCAST_STREAM: text.transform((raw) => raw || "broadcast"),
  POSTMARK_WEBHOOK_USER: text,
  POSTMARK_WEBHOOK_PASSWORD: text,
  SHIPPO_API_KEY: text.transform((raw) => raw || null),
  SHIPPO_WEBHOOK_TOKEN: text
    .transform((raw) => raw?.trim() || null)
    .refine(
      (token) => token === null || /^[A-Za-z0-9_-]{32,128}$/.test(token),
      "SHIPPO_WEBHOOK_TOKEN must be 32 to 128 letters, digits, - or _",
    ),
  SHIP_FROM_NAME: text,
  SHIP_FROM_STREET: text,
  SHIP_FROM_CITY: text,
  SHIP_FROM_STATE: text,
  SHIP_FROM_ZIP: text,
  SHIP_FROM_COUNTRY: text,
  SHIP_FROM_PHONE: text,
  SHIP_FROM_EMAIL: text,
  CUSTOMS_ORIGIN_COUNTRY: text.transform((raw) => raw || null),
  // A hold of 0 or less has always meant the default; only text that is no number is refused.
  CHECKOUT_HOLD_MINUTES: refusing((raw) => {
    if (raw === undefined || raw.trim() === "") return 10;
    const minutes = Number(raw);
    if (Number.isNaN(minutes)) throw new ConfigError(`CHECKOUT_HOLD_MINUTES must be a number of minutes, such as 10, not "${raw}".`);
    return minutes > 0 ? minutes : 10;
  }),
  LOGIN_ATTEMPTS_PER_IP: wholeNumber("LOGIN_ATTEMPTS_PER_IP", () => 30),
  REGISTRATIONS_PER_IP: wholeNumber("REGISTRATIONS_PER_IP", () => 10),
  SUBSCRIBES_PER_IP: wholeNumber("SUBSCRIBES_PER_IP", () => 10),
  CHECKOUTS_PER_IP: wholeNumber("CHECKOUTS_PER_IP", () => 60),
  METRICS_TOKEN: refusing(metricsTokenFrom),
  METRICS_PORT: refusing((raw) => {
    const trimmed = raw?.trim() ?? "";
    if (trimmed === "") return null;
    const port = /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : NaN;
    if (port >= 1 && port <= 65_535) return port;
    throw new ConfigError(`METRICS_PORT must be a port number for the metrics alone, such as 9464, not "${raw}".`);
  }),
  METRICS_HOST: text.transform((raw) => raw?.trim() || "127.0.0.1"),
  SHUTDOWN_DRAIN_SECONDS: seconds("SHUTDOWN_DRAIN_SECONDS", 0),
  SHUTDOWN_TIMEOUT_SECONDS: seconds("SHUTDOWN_TIMEOUT_SECONDS", 10),
  LOG_LEVEL: refusing((raw) => {
    const level = raw?.trim().toLowerCase() || "info";
    if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}; not "${raw}".`);
  }),
  LOG_FORMAT: refusing((raw) => {
    const format = raw?.trim().toLowerCase() || null;
    if (format === null || format === "json" || format === "pretty") return format;
    throw new ConfigError(`LOG_FORMAT must be json or pretty, not "${raw}".`);
  }),
  // Cached pages are most of a drop's answers: one line in a hundred by default, 0 for none.
  LOG_CACHED_SAMPLE: refusing((raw) => {
    if (raw === undefined || raw.trim() === "") return 0.01;
    const share = Number(raw.trim());
    if (Number.isFinite(share) && share >= 0 && share <= 1) return share;
    throw new ConfigError(`LOG_CACHED_SAMPLE must be a share of cached answers to log, from 0 (none) to 1 (all), not "${raw}".`);
  }),
});

/** One refusal per line, in the order the variables are listed above. */
function refusalOf(error: z.ZodError): ConfigError {
  return new ConfigError(error.issues.map((issue) => issue.message).join("\n"));
}

/** The schema's reading of the environment, or one ConfigError listing what it refused. */
function parsed<T>(schema: z.ZodType<T>, env: Env): T {
  const result = schema.safeParse(env);
  if (!result.success) throw refusalOf(result.error);
  return result.data;
}

/**
 * Where the data lives, read alone: maintenance commands (`npm run db:backup`) need the database
 * without the rest of the configuration's checks and side effects (payments, a new secret file).
 */
export function dataLocation(env: Env = process.env): { dataDir: string; database: DatabaseTarget } {
  const { DATA_DIR: dataDir } = parsed(envSchema.pick({ DATA_DIR: true }), env);
  return { dataDir, database: databaseFrom(env, dataDir) };
}

export function loadConfig(env: Env = process.env): Config {
  // The rules over several variables come after each variable's own, in the order the store has
  // always checked them: payments, then the database.
  const vars = parsed(envSchema, env);
  const payments = paymentsFrom(env);
  const dataDir = vars.DATA_DIR;
  const database = databaseFrom(env, dataDir);
  // Last: nothing is created (no data folder, no secret file) for a configuration the store refuses.
  const { sessionSecret, previousSessionSecrets } = sessionSecretsFrom(vars.SESSION_SECRET, vars.SESSION_SECRET_PREVIOUS, dataDir);
  if (previousSessionSecrets.includes(sessionSecret)) {
    // Most likely the old secret was moved into the list and the new one never set.
    throw new ConfigError(
      "SESSION_SECRET_PREVIOUS lists the current SESSION_SECRET: set SESSION_SECRET to the new secret, and list only earlier ones in SESSION_SECRET_PREVIOUS.",
    );
  }
  const webhookUser = vars.POSTMARK_WEBHOOK_USER;
  const webhookPassword = vars.POSTMARK_WEBHOOK_PASSWORD;
  return {
    production: vars.NODE_ENV === "production",
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    database,
    // Several instances share one folder (a network mount): UPLOADS_DIR names it (docs/deploy.md).
    uploadsDir: vars.UPLOADS_DIR ? path.resolve(vars.UPLOADS_DIR) : path.join(dataDir, "uploads"),
    sessionSecret,
    previousSessionSecrets,
    seedOnEmpty: vars.SEED_ON_EMPTY,
    admin: {
      username: vars.ADMIN_USERNAME,
      password: vars.ADMIN_PASSWORD,
      email: vars.ADMIN_EMAIL,
      usingDefaults: vars.ADMIN_PASSWORD === DEFAULT_ADMIN.password,
    },
    brand: {
      name: vars.BRAND_NAME,
      socialHandle: vars.SOCIAL_HANDLE,
      supportEmail: vars.SUPPORT_EMAIL || "support@legacy.example",
    },
    trustProxy: vars.TRUST_PROXY,
    publicUrl: originFrom(vars.PUBLIC_URL),
    postmark: {
      serverToken: vars.POSTMARK_SERVER_TOKEN,
      from: vars.POSTMARK_FROM || vars.SUPPORT_EMAIL || "support@legacy.example",
      broadcastStream: vars.POSTMARK_BROADCAST_STREAM,
      webhook: webhookUser && webhookPassword ? { user: webhookUser, password: webhookPassword } : null,
    },
    payments,
    shippo: {
      apiKey: vars.SHIPPO_API_KEY,
      from: shipFromAddress(env),
      fromMissing: SHIP_FROM_STREET_ADDRESS.filter((name) => !env[name]?.trim()),
      originCountry: vars.CUSTOMS_ORIGIN_COUNTRY,
      webhookToken: vars.SHIPPO_WEBHOOK_TOKEN,
    },
    holdMinutes: vars.CHECKOUT_HOLD_MINUTES,
    rateLimits: {
      loginsPerIp: vars.LOGIN_ATTEMPTS_PER_IP,
      registrationsPerIp: vars.REGISTRATIONS_PER_IP,
      subscribesPerIp: vars.SUBSCRIBES_PER_IP,
      checkoutsPerIp: vars.CHECKOUTS_PER_IP,
    },
    metrics: { token: vars.METRICS_TOKEN, port: vars.METRICS_PORT, host: vars.METRICS_HOST },
    shutdown: { drainMs: vars.SHUTDOWN_DRAIN_SECONDS * 1000, timeoutMs: vars.SHUTDOWN_TIMEOUT_SECONDS * 1000 },
    log: {
      level: vars.LOG_LEVEL,
      format: vars.LOG_FORMAT ?? (vars.NODE_ENV === "development" ? "pretty" : "json"),
      cachedSample: vars.LOG_CACHED_SAMPLE,
    },
  };
}

const clusterSchema = z.object({
  WEB_CONCURRENCY: wholeNumber("WEB_CONCURRENCY", () => os.availableParallelism(), "workers"),
  NODE_CLUSTER_SCHED_POLICY: text,
});

/**
 * What `npm start`'s primary needs before anything else: WEB_CONCURRENCY workers (unset: one per
 * core the process may use) and NODE_CLUSTER_SCHED_POLICY, node's own variable (see cluster.ts).
 */
export function clusterConfig(env: Env = process.env): { workers: number; roundRobin: boolean } {
  const vars = parsed(clusterSchema, env);
  return { workers: vars.WEB_CONCURRENCY, roundRobin: vars.NODE_CLUSTER_SCHED_POLICY === "rr" };
}
