import { AsyncLocalStorage } from "node:async_hooks";
import cluster from "node:cluster";
import pino, { type DestinationStream, type Logger } from "pino";
import { maskSecrets, REDACTED_PATHS } from "./log-mask";

/**
 * The store's log (issue 27): one JSON object per line on stdout, as pino writes it, shipped by
 * whatever the deployer runs. Every line names its worker, and, inside a request, the request id
 * (the X-Request-Id the answer carries). Every line is masked (log-mask.ts) on its way out.
 */

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
export const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** The request a line was written for, when it was written inside one (request-log.ts runs it). */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/**
 * stdout, written synchronously: the batches below already make the writes few, and a write that
 * returns has reached the pipe, so flushLog before a kill or an exit loses nothing. (An async
 * write still in libuv's pool when the process died was lost: flushSync does not wait for it.)
 */
function standardOut(): DestinationStream & { flushSync?: () => void } {
  const out = pino.destination({ dest: 1, sync: true });
  process.on("exit", () => {
    try {
      writeBatch();
      out.flushSync();
    } catch {
      // Nothing was open to flush.
    }
  });
  return out;
}

/**
 * Once the server listens, stdout takes its lines in batches: one write for up to BATCH_MS or
 * BATCH_BYTES of lines instead of one per line (issue 24: the request log's write was about a
 * tenth of a small request's CPU). A line reaches stdout at most BATCH_MS late, in order; the
 * shutdown's flushLog and the exit handler write what is waiting. Start-up lines, the primary's
 * and a test's own destination are written at once, as before (decision 0054).
 */
const BATCH_MS = 100;
/**
 * PIPE_BUF on Linux: `npm start`'s workers share the primary's stdout pipe, and only a write of at
 * most this many bytes reaches a pipe whole. A larger one can be split when the pipe is full, and
 * another worker's lines land inside it: broken JSON. So a batch never passes it; a single line
 * longer than it is written alone.
 */
const BATCH_BYTES = 4096;
let standard: (DestinationStream & { flushSync?: () => void }) | null = null;
let batching = false;
let batch = "";
let batchBytes = 0;
let batchTimer: NodeJS.Timeout | null = null;

function writeBatch() {
  if (batchTimer) clearTimeout(batchTimer);
  batchTimer = null;
  if (batch === "" || !standard) return;
  const lines = batch;
  batch = "";
  batchBytes = 0;
  standard.write(lines);
}

/** From now on, stdout's lines go out in batches (server.js, once the port listens). */
export function batchLogLines(): void {
  batching = true;
}

let target: DestinationStream | null = null;
const masked: DestinationStream = {
  write(line: string) {
    if (!target) target = standard = standardOut();
    if (!batching || target !== standard) {
      target.write(maskSecrets(line));
      return;
    }
    const text = maskSecrets(line);
    const bytes = Buffer.byteLength(text);
    if (batchBytes + bytes > BATCH_BYTES) writeBatch();
    batch += text;
    batchBytes += bytes;
    if (batchBytes >= BATCH_BYTES) writeBatch();
    else if (!batchTimer) batchTimer = setTimeout(writeBatch, BATCH_MS).unref();
  },
};

const lineShape = {
  level: "info",
  base: { pid: process.pid, worker: cluster.worker?.id ?? 0 },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
  mixin: () => {
    const scope = requestScope.getStore();
    return scope ? { requestId: scope.requestId } : {};
  },
};

export const log: Logger = pino(
  {
    ...lineShape,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  },
  masked,
);

/**
 * The request lines' own logger (request-log.ts). Their fields are the store's (a route pattern, a
 * status, a checked request id), never a caller's object, so pino's redaction by field name, about
 * a third of a line's cost in a rush profile, has nothing to find there; the finished line is
 * masked like every other.
 */
export const requestLines: Logger = pino(lineShape, masked);

/**
 * LOG_LEVEL and LOG_FORMAT from the configuration (server/config.ts). "pretty" (npm run dev's
 * default) prints through pino-pretty, a development package: where it is missing the lines stay JSON.
 */
export async function configureLog(options: { level: LogLevel; format: "json" | "pretty" }): Promise<void> {
  log.level = options.level;
  requestLines.level = options.level;
  if (options.format !== "pretty") return;
  try {
    const { default: pretty } = await import("pino-pretty");
    target = pretty({ sync: true, colorize: true });
  } catch {
    // Not installed (a production install): JSON it is.
  }
}

/** Tests read the lines themselves (tests/setup/log-capture.ts); null puts stdout back. */
export function setLogDestination(destination: DestinationStream | null): void {
  writeBatch();
  target = destination;
}

/** Writes whatever is still buffered, before the process ends (server.js's shutdown). */
export function flushLog(): void {
  const out = target as { flushSync?: () => void } | null;
  try {
    writeBatch();
    out?.flushSync?.();
  } catch {
    // Nothing buffered.
  }
}

/** A failure with its stack, in the request it happened in. */
export function logError(message: string, error: unknown): void {
  log.error({ err: error }, message);
}

/** A warning, with the error behind it when there is one. */
export function logWarning(message: string, error?: unknown): void {
  if (error === undefined) log.warn(message);
  else log.warn({ err: error }, message);
}
