/**
 * Bumped when this process learns that the database's page version moved (on PostgreSQL, a
 * NOTIFY: server/services/store/page-version.ts watchPageVersion): every reader below then reads the
 * counter at its next call instead of trusting a read up to `everyMs` old.
 */
let movedAt = 0;

/** The page version moved somewhere: the next read of every cache in this process goes to the database. */
export function pageVersionMoved(): void {
  movedAt++;
}

/**
 * The database's page version (decision 0014) read at most every `everyMs`: a number while the
 * last read is recent (and no move was announced since it began), else the one read in flight
 * (callers in between share it).
 */
export function everyFew<T>(read: () => Promise<T>, everyMs: number, now: () => number = Date.now) {
  let version: { value: T | undefined; readAt: number; moves: number } = { value: undefined, readAt: -Infinity, moves: -1 };
  let reading: { moves: number; value: Promise<T> } | null = null;
  return (): Promise<T> | T => {
    if (version.moves === movedAt && now() - version.readAt < everyMs) return version.value as T;
    // A read begun before the last announced move may have missed it: start another.
    if (reading && reading.moves === movedAt) return reading.value;
    const moves = movedAt;
    const current: { moves: number; value: Promise<T> } = {
      moves,
      value: read().then(
        (value) => {
          if (reading === current) reading = null;
          if (moves >= version.moves) version = { value, readAt: now(), moves };
          return value;
        },
        (error: unknown) => {
          if (reading === current) reading = null;
          throw error;
        },
      ),
    };
    reading = current;
    return current.value;
  };
}

/** The counters themselves, for the page and answer caches that app/ puts together (it reaches no service directly). */
export { pageVersionOf, readPageVersions, watchPageVersion } from "#server/services/store/page-version";
