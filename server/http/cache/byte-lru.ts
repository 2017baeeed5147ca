/** Anything kept under a byte budget: what it costs to hold, as the budget counts it. */
export interface Charged {
  bytes: number;
}

/**
 * Least-recently-used order under a byte budget (decision 0039). It holds no keys of its own: the
 * caller's maps find the items, and `dropped` takes an evicted item out of them. Every operation
 * is O(1) but an eviction's loop, which only runs when something is added or grows: a hit is one
 * `touch` (a delete and an add on an insertion-ordered Set).
 */
export class ByteLru<T extends Charged> {
  readonly #order = new Set<T>();
  #bytes = 0;

  constructor(
    readonly budget: number,
    private readonly dropped: (item: T) => void,
  ) {}

  /** The bytes held now; never above the budget once an add or a resize returns. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#order.size;
  }

  has(item: T): boolean {
    return this.#order.has(item);
  }

  /** Kept as the most recently used; the least recently used go until the budget holds (the new item last of all). */
  add(item: T): void {
    if (this.#order.has(item)) return this.touch(item);
    this.#order.add(item);
    this.#bytes += item.bytes;
    this.#fit();
  }

  /** Marks an item used now; an item not held is left alone. */
  touch(item: T): void {
    if (this.#order.delete(item)) this.#order.add(item);
  }

  /** An item held grew or shrank (a compressed form made, say): counted, and the budget kept. */
  resize(item: T, bytes: number): void {
    if (!this.#order.has(item)) {
      item.bytes = bytes;
      return;
    }
    this.#bytes += bytes - item.bytes;
    item.bytes = bytes;
    this.#fit();
  }

  /** Let go without `dropped` being called (the caller is taking it out itself). */
  remove(item: T): void {
    if (this.#order.delete(item)) this.#bytes -= item.bytes;
  }

  #fit(): void {
    // Deleting while iterating an insertion-ordered Set is safe: the loop goes on from the next one.
    for (const oldest of this.#order) {
      if (this.#bytes <= this.budget) return;
      this.remove(oldest);
      this.dropped(oldest);
    }
  }
}
