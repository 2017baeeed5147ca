import cluster, { type Worker } from "node:cluster";
import { clusterConfig, type Config } from "./config";
import { primaryMetrics } from "./observability/cluster-metrics";
import { log } from "#server/observability/log";
import { Burst } from "#server/services/alerts/burst";

/**
 * How many workers `npm start` runs: WEB_CONCURRENCY when set (1 keeps one process, no cluster),
 * otherwise one per core the process may use.
 */
export function workerCount(env?: Record<string, string | undefined>): number {
  return clusterConfig(env).workers;
}

/**
 * How the workers share the port. Node's default on Linux (round-robin) has the primary accept and
 * hand each connection to a worker, one at a time per worker, waiting for that worker's event loop
 * to take it; at T-0, with a thousand connections opening at once and the workers busy, the last
 * few dozen waited seconds for their turn (the rush's /store p99 3.6–4.3 s, decision 0030).
 * `none` lets each worker accept from the shared socket itself, so a busy worker simply accepts
 * less. NODE_CLUSTER_SCHED_POLICY (`rr` or `none`), node's own variable, still overrides.
 */
export function schedulingPolicy(env?: Record<string, string | undefined>): number {
  return clusterConfig(env).roundRobin ? cluster.SCHED_RR : cluster.SCHED_NONE;
}

/**
 * V8 flags every worker starts with, ahead of node's own flags for this process, so an operator's
 * `node --interrupt-budget=…` still wins (the later one counts). Four times V8's default budget
 * before it optimises a function: a fresh worker in the first seconds of a drop spent a quarter of
 * its CPU on V8 compiling, and optimising on thinner evidence redid work. Rush CPU per shopper
 * 5.56 ms against 7.17 (medians of 5 alternating pairs), shoppers/s +21 % (decision 0068).
 */
export const WORKER_V8_FLAGS: readonly string[] = ["--interrupt-budget=270336"];

/**
 * A worker that dies sooner than this after it starts listening (or before it listens) counts as a
 * crash loop and waits before the next. Counted from listening, not from the fork: on a loaded host
 * a boot alone can take longer than this, and a worker that dies as soon as it serves is the loop.
 */
const HEALTHY_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/** A death this long after the last one starts a new count: a loop's deaths come closer together. */
const QUIET_AFTER_MS = 60_000;

/**
 * How long to wait before replacing a worker, given how many in a row died young (this one
 * included): a one-off crash is replaced at once, a loop waits 0.5 s, 1 s, 2 s… up to 30 s.
 */
export function restartDelayMs(youngDeaths: number): number {
  return youngDeaths <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (youngDeaths - 2));
}

/**
 * The supervisor's rule for one death: how long until its replacement. At once after a healthy
 * life or a first young death; the doubling delay only while workers keep dying young; and at once,
 * whatever the count, when no other worker is alive: the backoff saves CPU, it must never leave the
 * store with no worker to accept connections (issue 21).
 */
export function restartPolicy(now: () => number = Date.now) {
  let youngDeaths = 0;
  let lastDeathAt = Number.NEGATIVE_INFINITY;
  return (livedMs: number, othersAlive: number): number => {
    const at = now();
    if (livedMs >= HEALTHY_AFTER_MS || at - lastDeathAt > QUIET_AFTER_MS) youngDeaths = 0;
    lastDeathAt = at;
    if (livedMs < HEALTHY_AFTER_MS) youngDeaths++;
    return othersAlive === 0 ? 0 : restartDelayMs(youngDeaths);
  };
}
/** Beyond a worker's own graceful stop (its drain and in-flight bound, server.js), so the workers finish first. */
const STOP_MARGIN_MS = 2_000;
/** Young deaths that make a restart loop worth an alert (issue 27). */
export const RESTART_LOOP = 3;
const RESTART_LOOP_MS = 5 * 60_000;

/**
 * The primary process of `npm start`: forks `count` workers running `exec` (server.js), replaces
 * any that exits while the store is running (`restartPolicy`: immediately after a healthy life or
 * when no other worker is alive, with a doubling delay while workers keep dying young, so a crash
 * loop does not spin the CPU), and on SIGTERM or
 * SIGINT asks every worker to stop gracefully and exits when they have. Workers share the listening
 * port through node:cluster. `onListening` runs once, when the first worker accepts connections;
 * a worker that dies before any listened ends the store with exit code 1.
 */
export function superviseWorkers(options: {
  count: number;
  exec: string;
  onListening: () => void;
  config: Config;
  /** Workers keep dying soon after their start (RESTART_LOOP young deaths in RESTART_LOOP_MS): the alert. */
  onRestartLoop?: (detail: string) => void;
}): void {
  cluster.schedulingPolicy = schedulingPolicy();
  // The workers' metrics, added up here for whoever scrapes (decision 0048).
  const metrics = primaryMetrics(options.config);
  const stopTimeoutMs = options.config.shutdown.drainMs + options.config.shutdown.timeoutMs + STOP_MARGIN_MS;
  cluster.setupPrimary({ exec: options.exec, execArgv: [...WORKER_V8_FLAGS, ...process.execArgv] });
  const workers = new Set<Worker>();
  const listeningAt = new Map<Worker, number>();
  let stopping = false;
  const delayFor = restartPolicy();
  const youngDeaths = new Burst(RESTART_LOOP, RESTART_LOOP_MS);
  let announced = false;

  const fork = () => workers.add(cluster.fork());

  cluster.on("listening", (worker) => {
    if (!listeningAt.has(worker)) listeningAt.set(worker, Date.now());
    if (announced) return;
    announced = true;
    options.onListening();
  });

  cluster.on("exit", (worker, code, signal) => {
    const listened = listeningAt.get(worker);
    // How long it served; one that never listened served for no time at all.
    const lived = listened === undefined ? 0 : Date.now() - listened;
    workers.delete(worker);
    listeningAt.delete(worker);
    if (stopping) {
      if (workers.size === 0) process.exit();
      return;
    }
    if (!announced) {
      // No worker ever listened (the port is taken, say): the store cannot start, as one process would not.
      log.error(`The store cannot start: worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}) before listening.`);
      stopping = true;
      for (const other of workers) other.process.kill("SIGTERM");
      process.exitCode = 1;
      if (workers.size === 0) process.exit(1);
      return;
    }
    const delay = delayFor(lived, workers.size);
    metrics.workerRestarted();
    if (lived < HEALTHY_AFTER_MS && youngDeaths.note(Date.now())) {
      options.onRestartLoop?.(
        `${RESTART_LOOP} workers stopped within ${HEALTHY_AFTER_MS / 1000} s of their start in the last ${RESTART_LOOP_MS / 60_000} minutes; the last: worker ${worker.process.pid} (${signal ?? `exit code ${code}`}). See the store's log.`,
      );
    }
    log.warn(
      `Worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another` +
        (delay ? ` in ${Math.round(delay / 1000)} s (workers keep stopping soon after start).` : "."),
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      if (workers.size === 0) process.exit(0);
      for (const worker of workers) worker.process.kill("SIGTERM");
      setTimeout(() => process.exit(1), stopTimeoutMs).unref();
    });
  }

  for (let i = 0; i < options.count; i++) fork();
}
