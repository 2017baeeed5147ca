/*
 * The background work server.js starts beside its HTTP server: the periodic sweep and the
 * fulfilment job, and the event and sold-out queues it writes out when it stops.
 * app/entry.server.tsx re-exports them for server.js from here, because app/ reaches no service
 * directly (eslint.config.js).
 */
export { resignSweeper, sweep, SWEEP_EVERY_MS } from "./services/jobs/sweeper";
export { startFulfilmentJob } from "./services/fulfilment/fulfilment-job";
export { flushEvents } from "./services/reporting/events";
export { flushSoldOutMisses } from "./services/drop/sold-out-misses";
