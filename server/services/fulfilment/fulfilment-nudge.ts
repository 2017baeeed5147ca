// The jobs running in this process (one in the store; tests may run two): a nudge wakes them all.
// Apart from the job, so confirming a payment does not import the job (nor, through it, the sweeper).
const sleepers = new Set<() => void>();

/**
 * A payment was confirmed in this process: the job here need not wait for its next poll. In any
 * other process the order is found by the poll, so a nudge that reaches no leader loses nothing.
 */
export function nudgeFulfilment(): void {
  for (const wake of sleepers) wake();
}

/** The job waits for a nudge (or its poll): `wake` is called once per nudge until it is forgotten. */
export function wakeOnNudge(wake: () => void): void {
  sleepers.add(wake);
}

export function forgetNudge(wake: () => void): void {
  sleepers.delete(wake);
}
