/**
 * Memos a stranger can feed (a cookie's value, a User-Agent) must not grow without end: each keeps
 * at most `entries`, the oldest going first, and a key longer than any genuine one is worked out
 * each time rather than kept.
 */
export interface BoundedMemo<V> {
  (key: string): V;
  /** Entries kept now (tests). */
  readonly size: number;
}

export function boundedMemo<V>(
  compute: (key: string) => V,
  { entries, maxKeyLength }: { entries: number; maxKeyLength: number },
): BoundedMemo<V> {
  const kept = new Map<string, V>();
  const memo = (key: string): V => {
    if (key.length > maxKeyLength) return compute(key);
    if (kept.has(key)) return kept.get(key)!;
    const value = compute(key);
    keepBounded(kept, key, value, entries);
    return value;
  };
  return Object.defineProperty(memo, "size", { get: () => kept.size }) as BoundedMemo<V>;
}

/** Sets `key` in `map`, first letting its oldest entry go when it already holds `limit`. */
export function keepBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (!map.has(key) && map.size >= limit) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** Adds `key` to `set`, first letting its oldest member go when it already holds `limit`. */
export function addBounded<K>(set: Set<K>, key: K, limit: number): void {
  if (!set.has(key) && set.size >= limit) set.delete(set.values().next().value!);
  set.add(key);
}
