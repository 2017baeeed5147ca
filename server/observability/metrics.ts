import cluster from "node:cluster";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { databaseStats } from "#db/client";
import type { AppContext } from "#server/context";
import { opsSnapshot, type OpsSnapshot } from "#server/services/reporting/ops-snapshot";
import { scrapeFor, serveMetricsPort } from "./cluster-metrics";
import { installMeter, type OrderOutcome, type StoreMeter } from "./meter";

/**
 * The store's Prometheus metrics (decision 0048), one registry per process. Counters and the
 * request histogram are this process's own and add up over `npm start`'s workers (prom-client's
 * AggregatorRegistry, cluster-metrics.ts); the drop-day gauges read the database, which every
 * worker shares, so they are aggregated as the largest (one worker's reading), never summed.
 * Label values are bounded: route kinds, methods, status codes, outcomes. Never an id, a path or
 * an address.
 */

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OUTCOMES: OrderOutcome[] = ["placed", "sold_out", "limit", "refused", "error"];
/** A scrape reads the database at most this often per process (several gauges share one reading). */
const SNAPSHOT_MS = 1_000;

export interface StoreMetrics {
  registry: Registry;
  /** The text of a scrape as this process serves it (its primary's sum under `npm start`'s workers). */
  scrape: () => Promise<string>;
}

/** Counters whose value is kept elsewhere (the database driver's statistics) and copied in at each scrape. */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number | null) {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === null) return;
      this.reset();
      this.inc(value);
    },
  });
}

export function createStoreMetrics(ctx: AppContext): { registry: Registry; meter: StoreMeter } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses; the same figures remain by
  // type in nodejs_active_handles and nodejs_active_resources.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) {
    registry.removeSingleMetric(name);
  }

  const requests = new Counter({
    name: "store_http_requests_total",
    help: "HTTP requests answered, by route kind (page: answered by Remix or the waiting-room gate; cached_page: from the page cache; memo_page: the memo door, loaders run and a kept render sent; api, trpc, asset, probe), method and status (499: the caller hung up).",
    labelNames: ["kind", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "store_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by route kind, method and status.",
    labelNames: ["kind", "method", "status"] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const pageCache = {
    hit: new Counter({ name: "store_page_cache_hits_total", help: "Pages answered from the page cache's copy.", registers: [registry] }),
    miss: new Counter({
      name: "store_page_cache_misses_total",
      help: "Page-cache lookups that had to render the page (none kept, or an older version).",
      registers: [registry],
    }),
    eviction: new Counter({
      name: "store_page_cache_evictions_total",
      help: "Pages the page cache let go to stay within its byte budget.",
      registers: [registry],
    }),
  };
  const passesRefused = new Counter({
    name: "store_waiting_room_passes_refused_total",
    help: "Requests for the store, bag or checkout sent back to the line (or refused a purchase) without a valid waiting-room pass.",
    registers: [registry],
  });
  const orders = new Counter({
    name: "store_process_order_total",
    help: "Process Order attempts by outcome: placed, sold_out (or short of stock), limit (per-customer), refused (bad input, rate limit), error.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of OUTCOMES) orders.inc({ outcome }, 0);
  const payments = new Counter({
    name: "store_payments_confirmed_total",
    help: "Orders that became paid (each once, whoever confirmed it: the buyer's call or the webhook).",
    registers: [registry],
  });
  const fulfilmentFailures = new Counter({
    name: "store_fulfilment_failures_total",
    help: "Fulfilment steps that failed and will be tried again (or left to the admin), by step: email, label.",
    labelNames: ["step"] as const,
    registers: [registry],
  });
  fulfilmentFailures.inc({ step: "email" }, 0);
  fulfilmentFailures.inc({ step: "label" }, 0);
  const mailFailures = new Counter({
    name: "store_mail_failures_total",
    help: "Messages the mail provider refused (recorded as failed in the outbox).",
    registers: [registry],
  });
  const eventsDropped = new Counter({
    name: "store_events_dropped_total",
    help: "Shopper events left out of the funnel: over the per-minute ceiling, a full queue, or refused by the database.",
    registers: [registry],
  });

  // Summed over the workers by the cluster's aggregation, as every gauge here.
  const writesWaiting = new Gauge({
    name: "store_writes_waiting",
    help: "API writes waiting for their turn in the workers' write lanes (decision 0065).",
    registers: [registry],
  });
  const writesRefused = new Counter({
    name: "store_writes_refused_total",
    help: "API writes answered 503 unrun because a worker's write lane was full (decision 0065).",
    registers: [registry],
  });

  let reading: { at: number; snapshot: Promise<OpsSnapshot | null> } | null = null;
  const snapshot = () => {
    const now = Date.now();
    if (!reading || now - reading.at >= SNAPSHOT_MS) {
      // A database that does not answer leaves these gauges out of the scrape rather than failing it.
      reading = { at: now, snapshot: opsSnapshot(ctx).catch(() => null) };
    }
    return reading.snapshot;
  };
  const fromDatabase = (
    name: string,
    help: string,
    read: (snap: OpsSnapshot) => number,
    labels?: { state: (snap: OpsSnapshot) => Record<string, number> },
  ) =>
    new Gauge({
      name,
      help,
      labelNames: labels ? ["state"] : [],
      aggregator: "max",
      registers: [registry],
      async collect() {
        const snap = await snapshot();
        this.reset();
        if (!snap) return;
        if (labels) for (const [state, value] of Object.entries(labels.state(snap))) this.set({ state }, value);
        else this.set(read(snap));
      },
    });
  const ageSeconds = (at: string | null) => (at === null ? 0 : Math.max(0, (Date.now() - Date.parse(at)) / 1000));
  fromDatabase(
    "store_waiting_room_waiting",
    "Browsers in the current drop's line, not yet admitted (0 when the room is not gating).",
    (s) => s.waitingRoom.waiting,
  );
  fromDatabase("store_waiting_room_admitted", "Places of the current drop's line admitted so far.", (s) => s.waitingRoom.admitted);
  fromDatabase("store_waiting_room_admitted_last_minute", "Places admitted in the last minute.", (s) => s.waitingRoom.admittedLastMinute);
  fromDatabase(
    "store_drop_units",
    "Units of the products on sale (the current drop's, visible): held by checkouts under way, sold, left on the shelf.",
    () => 0,
    {
      state: (s) => ({ held: s.units.held, sold: s.units.sold, left: s.units.left }),
    },
  );
  fromDatabase("store_fulfilment_queue_depth", "Paid orders whose e-mail or label is still to do.", (s) => s.fulfilment.depth);
  fromDatabase("store_fulfilment_oldest_age_seconds", "How long ago the oldest order still to fulfil was paid (0: none).", (s) =>
    ageSeconds(s.fulfilment.oldestAt),
  );
  fromDatabase("store_outbox_queue_depth", "Campaign messages waiting to be sent.", (s) => s.outbox.depth);
  fromDatabase("store_outbox_oldest_age_seconds", "How long ago the oldest campaign with unsent messages started (0: none).", (s) =>
    ageSeconds(s.outbox.oldestAt),
  );

  const stats = () => databaseStats(ctx.db);
  const pg = () => {
    const now = stats();
    return now?.engine === "postgres" ? now : null;
  };
  const sqlite = () => {
    const now = stats();
    return now?.engine === "sqlite" ? now : null;
  };
  if (ctx.config.database.engine === "postgres") {
    new Gauge({
      name: "store_db_pool_connections",
      help: "PostgreSQL connections of the processes' pools, by state: in_use (lent to a query or transaction), idle.",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const now = pg();
        if (!now) return;
        this.set({ state: "in_use" }, now.inUse);
        this.set({ state: "idle" }, now.idle);
      },
    });
    new Gauge({
      name: "store_db_pool_waiting",
      help: "Queries waiting for a PostgreSQL connection from a full pool.",
      registers: [registry],
      collect() {
        this.set(pg()?.waiting ?? 0);
      },
    });
    new Gauge({
      name: "store_db_pool_size",
      help: "PostgreSQL connections the pools may open (DATABASE_POOL_SIZE per process).",
      registers: [registry],
      collect() {
        this.set(pg()?.size ?? 0);
      },
    });
  } else {
    mirroredCounter(
      registry,
      "store_sqlite_busy_waits_total",
      "Transactions that waited for SQLite's write lock held by another process (busy retries).",
      () => sqlite()?.busyWaits ?? null,
    );
    mirroredCounter(
      registry,
      "store_sqlite_busy_wait_seconds_total",
      "Time transactions spent waiting for SQLite's write lock.",
      () => sqlite()?.busyWaitSeconds ?? null,
    );
    mirroredCounter(
      registry,
      "store_sqlite_busy_errors_total",
      "Transactions that gave up with SQLITE_BUSY after busy_timeout.",
      () => sqlite()?.busyErrors ?? null,
    );
    new Gauge({
      name: "store_sqlite_writers_waiting",
      help: "Transactions of the processes waiting for their writing connection.",
      registers: [registry],
      collect() {
        this.set(sqlite()?.writersWaiting ?? 0);
      },
    });
  }

  const meter: StoreMeter = {
    request(kind, method, status, seconds) {
      const labels = { kind, method, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    pageCache: (event) => pageCache[event].inc(),
    passRefused: () => passesRefused.inc(),
    orderOutcome: (outcome) => orders.inc({ outcome }),
    paymentConfirmed: () => payments.inc(),
    fulfilmentFailed: (step) => fulfilmentFailures.inc({ step }),
    mailFailed: (count) => mailFailures.inc(count),
    eventsDropped: (count) => eventsDropped.inc(count),
    writesWaiting: (count) => writesWaiting.set(count),
    writeRefused: () => writesRefused.inc(),
  };
  return { registry, meter };
}

/**
 * This process's metrics, made and installed once: every later meter() call counts into them. A
 * worker of `npm start` also answers its primary's requests for them (prom-client's cluster
 * messages), which the primary adds up.
 */
export function installMetrics(ctx: AppContext): StoreMetrics {
  if (installed) return installed;
  const metrics = createStoreMetrics(ctx);
  installMeter(metrics.meter);
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Its constructor starts listening for the primary's requests (a no-op outside a worker).
  new AggregatorRegistry();
  installed = { registry: metrics.registry, scrape: scrapeFor(metrics.registry) };
  // One process on its own serves METRICS_PORT itself; under workers the primary does.
  if (!cluster.isWorker && ctx.config.metrics.port !== null) serveMetricsPort(ctx.config, installed.scrape);
  return installed;
}

let installed: StoreMetrics | null = null;

/** The scrape of this process's installed metrics, or null when none are (tests, scripts, `npm run dev`). */
export function installedScrape(): (() => Promise<string>) | null {
  return installed?.scrape ?? null;
}
