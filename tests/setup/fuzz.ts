import { sendRaw, type RawAnswer } from "./raw-http";

/** A small seeded generator (mulberry32): the same values on every run and machine. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]! };
}

/** The `name=value` pairs an answer's Set-Cookie lines set, as a Cookie header. */
export const cookiesOf = (answer: RawAnswer) =>
  [answer.headers["set-cookie"] ?? []]
    .flat()
    .map((line) => line.split(";")[0])
    .join("; ");

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Sends every request, `parallel` at a time, each on a connection of its own; returns those
 * answered 500 or more, or not at all, each described with the start of its body.
 */
export async function failuresOf(baseUrl: string, requests: FuzzRequest[], parallel = 6): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { method, path, headers, body } = requests[next++]!;
      const label = `${method} ${path.slice(0, 120)}${headers.Cookie ? ` Cookie: ${headers.Cookie.slice(0, 60)}` : ""} ${headers["Content-Type"] ?? ""} ${String(body ?? "").slice(0, 160)}`;
      try {
        const answer = await sendRaw(baseUrl, method, path, headers, body);
        if (answer.status >= 500) failures.push(`${answer.status} ${label} -> ${answer.body.slice(0, 160)}`);
      } catch (error) {
        failures.push(`${(error as Error).message} ${label}`);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return failures;
}

/**
 * The lines of a spawned store's output that are not the logger's JSON at info: a warning, an
 * error, or anything that reached stdout or stderr past the logger (decision 0049).
 */
export function loudLines(output: string): string[] {
  return output
    .split("\n")
    .filter(Boolean)
    .filter((line) => {
      if (!line.startsWith("{")) return true;
      try {
        return (JSON.parse(line) as { level?: unknown }).level !== "info";
      } catch {
        return true;
      }
    });
}
