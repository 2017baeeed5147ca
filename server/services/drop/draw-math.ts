import crypto from "node:crypto";
import { customerKeyOf } from "./customer-limits";

/**
 * The arithmetic of a verifiable draw (issue 26, decision 0047), pure and deterministic: the same
 * public proof gives the same answer here, in `npm run draw:verify` and in anyone's own script.
 * Hashes and HMACs take the seed's 32 raw bytes; every other input is UTF-8 text; hex is lower case.
 */

export interface ProofEntry {
  n: number;
  emailHash: string;
  /** "" for a product without sizes. */
  size: string;
}

export interface DrawProof {
  commitment: string;
  /** 64 hex characters: the seed's 32 bytes. */
  seed: string;
  beacon: string;
  chain: string;
  entries: ProofEntry[];
  order: number[];
  winners: number[];
  /** Units given per size when the draw was made; "" is the one size of a product without sizes. */
  units: Record<string, number>;
}

const SEED_HEX = /^[0-9a-f]{64}$/;

export const sha256Hex = (data: string | Buffer): string => crypto.createHash("sha256").update(data).digest("hex");

const hmac = (key: Buffer, text: string): Buffer => crypto.createHmac("sha256", key).update(text, "utf8").digest();

/** A fresh secret seed, as 64 hex characters. */
export const newSeedHex = (): string => crypto.randomBytes(32).toString("hex");

/** `commitment = SHA-256(seed)`, over the seed's raw bytes. */
export const commitmentOf = (seedHex: string): string => sha256Hex(Buffer.from(seedHex, "hex"));

/**
 * The entrant's identity as the per-customer limit folds it (case, `+tag`, Gmail dots): one
 * person, one entry. The same function as the limit's, never a second folding.
 */
export const identityOf = (email: string): string => customerKeyOf(email);

/** `emailHash = SHA-256(drawId + ":" + folded e-mail)`: an entrant finds their own without anyone else's address. */
export const emailHashOf = (drawId: number, email: string): string => sha256Hex(`${drawId}:${identityOf(email)}`);

/** `chain_n = SHA-256(chain_{n-1} + "|" + n + "|" + emailHash + "|" + size)`. */
export const nextChain = (previous: string, n: number, emailHash: string, size: string): string =>
  sha256Hex(`${previous}|${n}|${emailHash}|${size}`);

/** The chain after every entry, from `chain_0 = commitment`; entries are taken in the order of n. */
export function chainOf(commitment: string, entries: readonly ProofEntry[]): string {
  return [...entries].sort((a, b) => a.n - b.n).reduce((chain, e) => nextChain(chain, e.n, e.emailHash, e.size), commitment);
}

/** `key = HMAC-SHA256(seed, chain_final + "|" + beacon)`. */
export const drawKey = (seedHex: string, chainFinal: string, beacon: string): Buffer =>
  hmac(Buffer.from(seedHex, "hex"), `${chainFinal}|${beacon}`);

/** Entries ordered by `HMAC-SHA256(key, String(n))` ascending, compared as hex text. */
export function drawOrder(key: Buffer, ns: readonly number[]): number[] {
  return ns
    .map((n) => ({ n, rank: hmac(key, String(n)).toString("hex") }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.n - b.n))
    .map(({ n }) => n);
}

/**
 * Down the drawn order, one unit to each entrant of their size while that size has units left.
 * Returns the winners in the drawn order.
 */
export function winnersOf(
  order: readonly number[],
  sizeOf: ReadonlyMap<number, string>,
  units: Readonly<Record<string, number>>,
): number[] {
  const left = new Map(Object.entries(units));
  const winners: number[] = [];
  for (const n of order) {
    const size = sizeOf.get(n) ?? "";
    const units = left.get(size) ?? 0;
    if (units <= 0) continue;
    left.set(size, units - 1);
    winners.push(n);
  }
  return winners;
}

/** The order and winners a draw gives: everything after the seed is fixed follows from here. */
export function runDraw(input: {
  seedHex: string;
  commitment: string;
  beacon: string;
  entries: readonly ProofEntry[];
  units: Readonly<Record<string, number>>;
}): { chain: string; order: number[]; winners: number[] } {
  const chain = chainOf(input.commitment, input.entries);
  const order = drawOrder(
    drawKey(input.seedHex, chain, input.beacon),
    input.entries.map((e) => e.n),
  );
  const winners = winnersOf(order, new Map(input.entries.map((e) => [e.n, e.size])), input.units);
  return { chain, order, winners };
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Checks a published proof from its own numbers alone. Every line of `problems` names one thing
 * that does not hold; none means the proof holds.
 */
export function verifyProof(proof: DrawProof): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  if (!SEED_HEX.test(proof.seed)) {
    return { ok: false, problems: ["The seed is not 64 hex characters."] };
  }
  if (commitmentOf(proof.seed) !== proof.commitment) {
    problems.push("The seed does not match the commitment published before entries opened.");
  }
  const ns = proof.entries.map((e) => e.n).sort((a, b) => a - b);
  if (!ns.every((n, i) => n === i + 1)) problems.push("The entries are not numbered 1, 2, 3… without gaps.");
  const { chain, order, winners } = runDraw({
    seedHex: proof.seed,
    commitment: proof.commitment,
    beacon: proof.beacon,
    entries: proof.entries,
    units: proof.units,
  });
  if (chain !== proof.chain) problems.push("The entries do not give the published chain: an entry was changed, added or removed.");
  if (!same(order, proof.order)) problems.push("The published order is not the order the seed, chain and beacon give.");
  if (!same(winners, proof.winners)) problems.push("The published winners are not the first entrants of each size in the drawn order.");
  return { ok: problems.length === 0, problems };
}
