import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#db/client";
import { mockServer } from "../mocks/server";
import { getFresh, startBuiltStore, type BuiltStore } from "../setup/built-store";
import { builtStoreDatabase } from "../setup/built-store-database";
import { CookieJar } from "../setup/http";
import { TMP_DIR } from "../setup/paths";

// `npm start` with two workers on one database (SQLite, or PostgreSQL under STORE_TEST_DB=postgres), stopped and started again: the line is in the
// database, so every browser finds its place where it was, whichever worker answers.
const dataDir = path.join(TMP_DIR, `waiting-room-restart-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
const database = builtStoreDatabase();
let env: Record<string, string>;
let store: BuiltStore;
let db: Db;

beforeAll(async () => {
  // This file talks to a real server over loopback; msw has nothing to intercept here.
  mockServer.close();
  env = { WEB_CONCURRENCY: "2", ...database.env() };
  store = await startBuiltStore({ dataDir, env });
  db = database.open(dataDir);
}, 330_000);

afterAll(async () => {
  await store?.stop();
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function status(jar: CookieJar, method = "GET"): Promise<Record<string, unknown>> {
  const response = await fetch(`${store.baseUrl}/api/waiting-room`, {
    method,
    headers: { Cookie: jar.header() },
    signal: AbortSignal.timeout(30_000),
  });
  jar.store(response);
  expect(response.status).toBe(method === "POST" ? 201 : 200);
  return (await response.json()) as Record<string, unknown>;
}

describe("the waiting room across a restart of npm start", () => {
  it("keeps every place: after the restart each browser has the same number, the same people ahead", async () => {
    // A drop that started a minute ago, its line paused so that nobody's turn comes meanwhile.
    const dropAt = new Date(Date.now() - 60_000).toISOString();
    await db
      .insertInto("appSettings")
      .values({ key: "countdown_date", value: dropAt, updatedAt: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: dropAt }))
      .execute();
    await db
      .updateTable("waitingRoom")
      .set({ dropAt, paused: 1, perAddress: 1000, drawn: 1, admittedBase: 0, admittedSince: null })
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // each worker's one-second view of the room

    const jars = Array.from({ length: 30 }, () => new CookieJar());
    const before: Record<string, unknown>[] = [];
    for (const jar of jars) before.push(await status(jar, "POST"));
    expect(before.map((s) => s.position)).toEqual(jars.map((_, i) => i + 1));
    expect(before.every((s) => s.state === "waiting")).toBe(true);
    // Whichever worker answers, a visitor without a pass is sent to the line.
    for (let i = 0; i < 6; i++) expect((await getFresh(`${store.baseUrl}/store`)).status).toBe(303);

    await store.stop();
    store = await startBuiltStore({ dataDir, env });
    const after: Record<string, unknown>[] = [];
    for (const jar of jars) after.push(await status(jar));
    expect(after).toEqual(before);
    expect(await db.selectFrom("waitingRoomPlaces").select("id").where("dropAt", "=", dropAt).execute()).toHaveLength(30);
  }, 400_000);
});
