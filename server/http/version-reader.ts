/**
 * The database's page version (decision 0014) read at most every `everyMs`: the value while the
 * last read is recent, else the one read in flight (callers in between share it).
 */
export function everyFew<T>(read: () => Promise<T>, everyMs: number, now: () => number = Date.now) {
  let version: { value: T | undefined; readAt: number } = { value: undefined, readAt: -Infinity };
  let reading: Promise<T> | null = null;
  return (): Promise<T> | T => {
    if (now() - version.readAt < everyMs) return version.value as T;
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
