import { expect } from "vitest";
import type { Db } from "#db/client";
import { sendRaw } from "./raw-http";

/**
 * Turns a spawned store's waiting room on (a drop ten minutes away: its window is open, the line
 * is forming) or off, through its database, and waits until /store says so ten times in a row.
 */
export async function switchWaitingRoom(db: Db, baseUrl: string, on: boolean): Promise<void> {
  const value = new Date(Date.now() + 10 * 60_000).toISOString();
  await db
    .insertInto("appSettings")
    .values({ key: "countdown_date", value, updatedAt: new Date().toISOString() })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
  await db
    .updateTable("waitingRoom")
    .set({ enabled: on ? 1 : 0 })
    .where("id", "=", 1)
    .execute();
  // Each copy of the room (the fast path's and the Remix build's, in each worker) is read at most
  // once a second: after a second every copy read before the change is stale, and /store says so.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const deadline = Date.now() + 10_000;
  let seen = 0;
  while (seen < 10 && Date.now() < deadline) {
    const { status } = await sendRaw(baseUrl, "GET", "/store", {});
    seen = (status === 303) === on ? seen + 1 : 0;
    if (seen === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(seen, `the waiting room ${on ? "on" : "off"}`).toBe(10);
}
