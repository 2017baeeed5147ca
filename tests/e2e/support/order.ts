// The order the e2e files and the tests inside them run in, from E2E_ORDER:
//   (unset) or "forward"  as written: files by name, tests top to bottom
//   "reverse"             files and tests (at every level of describe) back to front
//   "shuffle:<seed>"      a shuffle that the same seed repeats ("shuffle" alone picks a seed; the runner prints it)
// The tests are order-independent; reverse and shuffle are how that is proved.
//
// `test` and `describe` here wrap node:test's. Everything a file registers while it loads (and
// everything a describe body registers) is collected first and handed to node:test in the chosen
// order. So describe bodies must stay synchronous, and a file must not use top-level await.
import path from "node:path";
import * as nodeTest from "node:test";

export type Order = { kind: "forward" } | { kind: "reverse" } | { kind: "shuffle"; seed: number };

export function parseOrder(value: string | undefined): Order {
  const text = (value ?? "").trim();
  if (text === "" || text === "forward") return { kind: "forward" };
  if (text === "reverse") return { kind: "reverse" };
  const shuffle = /^shuffle(?::(\d+))?$/.exec(text);
  if (shuffle) return { kind: "shuffle", seed: shuffle[1] === undefined ? Math.floor(Math.random() * 1_000_000) : Number(shuffle[1]) };
  throw new Error(`E2E_ORDER must be forward, reverse or shuffle:<seed>, not "${text}"`);
}

export const describeOrder = (order: Order) => (order.kind === "shuffle" ? `shuffle:${order.seed}` : order.kind);

/** A small seeded generator (mulberry32): the same seed and salt give the same sequence. */
function random(seed: number, salt: string): () => number {
  let state = seed >>> 0;
  for (const char of salt) state = Math.imul(state ^ char.charCodeAt(0), 0x9e3779b1) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `items` in the given order; `salt` names the list, so two lists of a shuffle are shuffled differently. */
export function arrange<T>(items: readonly T[], order: Order, salt: string): T[] {
  if (order.kind === "forward") return [...items];
  if (order.kind === "reverse") return [...items].reverse();
  const next = random(order.seed, salt);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// The runner passes a shuffle's seed on, so a file run by hand with "shuffle" alone still repeats itself.
const ORDER = parseOrder(process.env.E2E_ORDER);
const FILE = path.basename(process.argv[1] ?? "e2e");

type Registration = { name: string; register: () => void };
type TestFn = nodeTest.TestFn;
type SuiteFn = () => void;

/** What is being collected now: the top level of the file, or the body of the describe being built. */
let collecting: Registration[] | null = null;
let topLevel: Registration[] | null = null;

function collect(entry: Registration) {
  if (collecting) {
    collecting.push(entry);
    return;
  }
  if (!topLevel) {
    topLevel = [];
    // Once the file has loaded: every top-level test and describe, in the chosen order.
    setImmediate(() => {
      const entries = topLevel ?? [];
      topLevel = null;
      for (const entry of arrange(entries, ORDER, FILE)) entry.register();
    });
  }
  topLevel.push(entry);
}

/** node:test's `test`, registered in E2E_ORDER's order. */
export function test(name: string, fn: TestFn): void;
export function test(name: string, options: nodeTest.TestOptions, fn: TestFn): void;
export function test(name: string, optionsOrFn: nodeTest.TestOptions | TestFn, maybeFn?: TestFn): void {
  const options = typeof optionsOrFn === "function" ? {} : optionsOrFn;
  const fn = typeof optionsOrFn === "function" ? optionsOrFn : maybeFn;
  if (!fn) throw new Error(`test "${name}" has no function`);
  collect({ name, register: () => void nodeTest.test(name, options, fn) });
}

/** node:test's `describe`, its tests (and the describe itself) registered in E2E_ORDER's order. */
export function describe(name: string, fn: SuiteFn): void {
  collect({
    name,
    register: () =>
      void nodeTest.describe(name, () => {
        const outer = collecting;
        const inner: Registration[] = [];
        collecting = inner;
        try {
          const result: unknown = fn();
          if (result instanceof Promise) throw new Error(`describe "${name}": the body must be synchronous`);
        } finally {
          collecting = outer;
        }
        for (const entry of arrange(inner, ORDER, `${FILE} > ${name}`)) entry.register();
      }),
  });
}
