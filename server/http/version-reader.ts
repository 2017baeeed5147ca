/**
 * The database's page version (decision 0014) read at most every `everyMs`: a number while the
 * last read is recent, else the one read in flight (callers in between share it).
 */
export function everyFew(read: () => Promise<number>, everyMs: number, now: () => number = Date.now) {
  let version = { value: -1, readAt: -Infinity };
  let reading: Promise<number> | null = null;
  return (): Promise<number> | number => {
    if (now() - version.readAt < everyMs) return version.value;
    reading ??= read().then(
      (value) => {
        version = { value, readAt: now() };
        reading = null;
        return value;
      },
      (error: unknown) => {
        reading = null;
        throw error;
      },
    );
    return reading;
  };
}
