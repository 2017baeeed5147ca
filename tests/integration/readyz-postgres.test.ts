// /readyz on a built store over PostgreSQL (decision 0048): 200, then 503 with its reason while the
// database server is stopped, and 200 again once it is back, from the same process (nothing
// restarted it). Runs on a PostgreSQL server of its own, so that stopping it disturbs no other file.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { mockServer } from "../mocks/server";
import { getFresh, startBuiltStore, type BuiltStore } from "../setup/built-store";
import { TMP_DIR } from "../setup/paths";
import { startPostgres, type PostgresServer } from "../setup/postgres";
import { describeOnPostgres, postgresSkipped } from "../setup/postgres-db";

const dataDir = path.join(TMP_DIR, `readyz-pg-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeOnPostgres(
  postgresSkipped ? `/readyz with PostgreSQL stopped (skipped: ${postgresSkipped})` : "/readyz with PostgreSQL stopped",
  () => {
    let server: PostgresServer;
    let store: BuiltStore;

    beforeAll(async () => {
      mockServer.close();
      server = await startPostgres();
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query("CREATE DATABASE store");
      await admin.end();
      fs.mkdirSync(dataDir, { recursive: true });
      store = await startBuiltStore({
        dataDir,
        env: { DATABASE_URL: server.urlFor("store"), WEB_CONCURRENCY: "1", SESSION_SECRET: "readyz-secret" },
      });
    }, 600_000);

    afterAll(async () => {
      await store?.stop();
      server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    /** /readyz until it answers `status`, within `ms`: its last answer. */
    async function readyzUntil(status: number, ms: number) {
      const deadline = Date.now() + ms;
      for (;;) {
        const answer = await getFresh(`${store.baseUrl}/readyz`);
        if (answer.status === status || Date.now() > deadline)
          return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
        await sleep(200);
      }
    }

    it("turns 503 while the database is stopped and back to 200 when it returns, from the same process", async () => {
      const ready = await readyzUntil(200, 5_000);
      expect(ready.status).toBe(200);
      const pid = ready.body.pid;

      server.pause();
      try {
        const down = await readyzUntil(503, 15_000);
        expect(down).toEqual({
          status: 503,
          body: { status: "unavailable", reason: "The database does not answer.", payments: "test", pid },
        });
      } finally {
        server.resume();
      }
      const back = await readyzUntil(200, 30_000);
      expect(back).toEqual({ status: 200, body: { status: "ready", payments: "test", pid } });
    }, 120_000);
  },
);
