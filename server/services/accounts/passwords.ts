import { hash, verify } from "@node-rs/argon2";
import { TooMany } from "#server/errors";

// OWASP Password Storage Cheat Sheet, argon2id: m=19 MiB, t=2, p=1.
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

/**
 * Argon2 runs at most this many at once per process: each holds 19 MiB and one of libuv's four
 * threads (which file reads and DNS share), so a flood of sign-ups or sign-ins queues here instead
 * of taking the memory and the thread pool. Past `WAITING_AT_MOST` waiting, a caller is refused
 * with 429: a queue nobody bounds is memory a stranger grows.
 */
export const HASHES_AT_ONCE = 2;
export const WAITING_AT_MOST = 32;
export const BUSY_MESSAGE = "The store is busy signing people in. Please try again in a few seconds.";

let running = 0;
let peak = 0;
const waiting: (() => void)[] = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHES_AT_ONCE) {
    if (waiting.length >= WAITING_AT_MOST) throw new TooMany(BUSY_MESSAGE, 5);
    // Woken with the finishing caller's slot, so nobody arriving meanwhile can take it too.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  peak = Math.max(peak, running);
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** For tests: the most argon2 computations this process ran at once since the last call. */
export function takePeakPasswordWork(): number {
  const seen = peak;
  peak = running;
  return seen;
}

export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(password, options));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return bounded(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

/** A real hash to verify against when the user does not exist, so timing does not reveal usernames. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  // Not a caller's work: kept out of the bound, and never cached as a refusal.
  decoy ??= hash("decoy-password-for-timing", options);
  return decoy;
}
