import http from "node:http";
import net from "node:net";
import { getFresh } from "./built-store";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request to a spawned store on a connection of its own (so node:cluster may hand it to any
 * worker), with exactly the headers and body given; a refused connection or a 20 s silence rejects.
 */
export function sendRaw(
  baseUrl: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${pathname}`, { method, headers, agent: false, timeout: 20_000 }, (response) => {
      let text = "";
      response.setEncoding("latin1");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on("timeout", () => request.destroy(new Error(`${method} ${pathname} timed out`)));
    request.on("error", reject);
    request.end(body);
  });
}

/** The pids that answer /healthz over fresh connections, until `count` distinct ones have (or a deadline). */
export async function answeringPids(baseUrl: string, count: number, withinMs = 30_000): Promise<Set<number>> {
  const pids = new Set<number>();
  const deadline = Date.now() + withinMs;
  while (pids.size < count && Date.now() < deadline) {
    try {
      const { status, body } = await getFresh(`${baseUrl}/healthz`);
      if (status === 200) pids.add((JSON.parse(body) as { pid: number }).pid);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return pids;
}

/**
 * Bytes written by hand on a socket of their own (a request line no HTTP client would write), then
 * the socket's end; resolves with the answer's status (0 when the store closed without one) and its text.
 */
export function sendByHand(baseUrl: string, bytes: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(baseUrl).port), "127.0.0.1");
    let text = "";
    const done = () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text });
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("close", done);
    socket.on("error", () => undefined);
    socket.write(bytes, "latin1");
    // Half-closed after a moment: an answer to a request still waiting for its body comes first.
    setTimeout(() => socket.end(), 500);
  });
}
