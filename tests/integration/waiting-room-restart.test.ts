import { describe, expect, it } from "vitest";
import { getFresh } from "../setup/built-store";
import { CookieJar } from "../setup/http";
import { builtStoreForFile } from "../setup/built-store-fixture";

// `npm start` with two workers on one database (SQLite, or PostgreSQL under STORE_TEST_DB=postgres), stopped and started again: the line is in the
// database, so every browser finds its place where it was, whichever worker answers.
const built = builtStoreForFile("waiting-room-restart");

async function status(jar: CookieJar, method = "GET"): Promise<Record<string, unknown>> {
  const response = await fetch(`${built.store.baseUrl}/api/waiting-room`, {
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
    await built.db
      .insertInto("appSettings")
      .values({ key: "countdown_date", value: dropAt, updatedAt: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: dropAt }))
      .execute();
    await built.db
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
    for (let i = 0; i < 6; i++) expect((await getFresh(`${built.store.baseUrl}/store`)).status).toBe(303);

    await built.store.stop();
    await built.restart();
    const after: Record<string, unknown>[] = [];
    for (const jar of jars) after.push(await status(jar));
    expect(after).toEqual(before);
    expect(await built.db.selectFrom("waitingRoomPlaces").select("id").where("dropAt", "=", dropAt).execute()).toHaveLength(30);
  }, 400_000);
});
