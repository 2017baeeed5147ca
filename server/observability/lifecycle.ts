/**
 * Whether this process is stopping (SIGTERM, decision 0048): from then on /readyz answers 503, so a
 * balancer takes the process out of rotation while it finishes what it is doing.
 */
let stopping = false;

export function beginShutdown(): void {
  stopping = true;
}

export function shuttingDown(): boolean {
  return stopping;
}
