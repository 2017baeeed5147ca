import cluster, { type Worker } from "node:cluster";
import crypto from "node:crypto";
import http from "node:http";
import { AggregatorRegistry, Counter, Registry } from "prom-client";
import type { Config } from "#server/config";
import { logError } from "./log";

/**
 * Where a scrape's text comes from (decision 0048). A single process answers from its own
 * registry. Under `npm start`'s workers, the primary asks every worker for theirs (prom-client's
 * AggregatorRegistry) and adds them up, with its own worker-restart counter; a worker that is
 * scraped on the store's port asks its primary for that sum over IPC.
 */

const ASK = "store:metrics-ask";
const ANSWER = "store:metrics-answer";
/** prom-client gives up on a silent worker after 5 s; the asking worker waits a little longer. */
const ASK_TIMEOUT_MS = 6_000;

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

type Ask = { type: typeof ASK; id: string };
type Answer = { type: typeof ANSWER; id: string; text?: string; error?: string };

const isAsk = (message: unknown): message is Ask => (message as Ask | null)?.type === ASK && typeof (message as Ask).id === "string";
const isAnswer = (message: unknown): message is Answer =>
  (message as Answer | null)?.type === ANSWER && typeof (message as Answer).id === "string";

export interface PrimaryMetrics {
  /** The whole store's text: every worker's metrics added up, and the primary's own. */
  scrape(): Promise<string>;
  /** A worker died and is replaced. */
  workerRestarted(): void;
}

/** For the primary of `npm start`: answers its workers' asks, and serves METRICS_PORT when set. */
export function primaryMetrics(config: Config): PrimaryMetrics {
  const aggregator = new AggregatorRegistry();
  const own = new Registry();
  const restarts = new Counter({
    name: "store_worker_restarts_total",
    help: "Workers that stopped and were replaced by npm start's primary.",
    registers: [own],
  });
  const scrape = async () => {
    const workers = await aggregator.clusterMetrics();
    return `${workers.trimEnd()}\n${await own.metrics()}`;
  };
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isAsk(message)) return;
    scrape().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (error: unknown) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: String(error) } satisfies Answer),
    );
  });
  if (config.metrics.port !== null) serveMetricsPort(config, scrape);
  return { scrape, workerRestarted: () => restarts.inc() };
}

/**
 * The text of one scrape, as the process serving the store's port sees it: its primary's sum
 * under `npm start`'s workers, its own registry otherwise.
 */
export function scrapeFor(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) return () => registry.metrics();
  const waiting = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on("message", (message: unknown) => {
    if (!isAnswer(message)) return;
    const asker = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.text !== undefined) asker?.resolve(message.text);
    else asker?.reject(new Error(message.error ?? "The primary sent no metrics."));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = crypto.randomUUID();
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("The primary did not answer for the metrics in time."));
      }, ASK_TIMEOUT_MS);
      waiting.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send?.({ type: ASK, id } satisfies Ask);
    });
}

/** METRICS_PORT: GET /metrics alone, no token (the port is bound to loopback unless METRICS_HOST says otherwise). */
export function serveMetricsPort(config: Config, scrape: () => Promise<string>): http.Server {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if ((req.method !== "GET" && req.method !== "HEAD") || path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    scrape().then(
      (text) => {
        res.writeHead(200, { "Content-Type": METRICS_CONTENT_TYPE });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        logError("Collecting the metrics failed", error);
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end("The metrics could not be collected.\n");
      },
    );
  });
  server.on("error", (error) => logError(`The metrics port ${config.metrics.host}:${config.metrics.port} could not be opened`, error));
  server.listen(config.metrics.port!, config.metrics.host);
  // Scrapes must not keep a stopping process alive.
  server.unref();
  return server;
}
