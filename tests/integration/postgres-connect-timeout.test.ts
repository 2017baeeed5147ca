import net from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConnectionLost } from "#db/connection-lost";
import { dedicatedClient, openPostgres } from "#db/postgres";

// A PostgreSQL address that accepts connections and never answers (a hung server, a full backlog
// behind a balancer): opening a connection must fail within its bound, not hold the query for ever.
describe("a PostgreSQL server that never answers", () => {
  let server: net.Server;
  let url = "";
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    server = net.createServer((socket) => {
      sockets.add(socket);
      // Read (and ignore) the client's startup message, so its closing is seen.
      socket.resume();
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `postgres://store:secret@127.0.0.1:${(server.address() as net.AddressInfo).port}/store`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("fails a pool query once opening its connection takes longer than the bound", async () => {
    const db = openPostgres(url, 2, { connectTimeoutMs: 300 });
    try {
      const started = Date.now();
      const failure = await sql`SELECT 1`.execute(db).then(
        () => null,
        (error: unknown) => error,
      );
      expect((failure as Error).message).toBe("timeout expired");
      // The database away, not a fault of the request: answered 503 with Retry-After (db/connection-lost.ts).
      expect(isConnectionLost(failure)).toBe(true);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(5_000);
      // The connection that timed out was closed on our side, not left open.
      await expect.poll(() => sockets.size, { timeout: 2_000 }).toBe(0);
    } finally {
      await db.destroy();
    }
  });

  it("fails a dedicated connection (leases, LISTEN, advisory locks) the same way", async () => {
    const client = dedicatedClient(url, "store-test", 300);
    client.on("error", () => {});
    const started = Date.now();
    await expect(client.connect()).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
