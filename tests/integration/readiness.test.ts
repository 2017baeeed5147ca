// GET /readyz (decision 0048): 200 when the database answers with current migrations, 503 with the
// reason when a migration is missing or the process is stopping. /healthz stays liveness.
import { sql } from "kysely";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { healthCheck } from "#server/http/doors/healthz-door";
import { readinessCheck } from "#server/http/doors/readyz-door";
import { beginShutdown } from "#server/observability/lifecycle";
import { READINESS_MESSAGES } from "#server/services/store/readiness";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
beforeAll(() => {
  useAppContextForTests(ctx);
});

const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> });

describe("GET /readyz", () => {
  let putBack: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await putBack?.();
    putBack = null;
  });

  it("answers 200 when the database answers and every migration has run", async () => {
    expect(await answer(await readinessCheck())).toEqual({ status: 200, body: { status: "ready", payments: "test", pid: process.pid } });
  });

  it("answers 503 naming the migration the database has not run, while /healthz stays 200", async () => {
    const last = await sql<{
      name: string;
      timestamp: string;
    }>`SELECT name, timestamp FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(ctx.db);
    const { name, timestamp } = last.rows[0]!;
    await sql`DELETE FROM kysely_migration WHERE name = ${name}`.execute(ctx.db);
    putBack = async () => void (await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${name}, ${timestamp})`.execute(ctx.db));

    const ready = await answer(await readinessCheck());
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: "unavailable",
      reason: READINESS_MESSAGES.migrations([name]),
      payments: "test",
      pid: process.pid,
    });
    expect(ready.body.reason).toBe(`The database has migrations not applied yet: ${name}.`);
    expect((await healthCheck()).status).toBe(200);
  });

  it("answers 503 once the process is stopping, and /healthz still 200", async () => {
    expect((await readinessCheck()).status).toBe(200);
    beginShutdown();
    expect(await answer(await readinessCheck())).toEqual({
      status: 503,
      body: { status: "unavailable", reason: "The store is shutting down.", payments: "test", pid: process.pid },
    });
    expect((await healthCheck()).status).toBe(200);
  });
});
