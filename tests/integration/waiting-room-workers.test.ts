import { spawn } from "node:child_process";
import { describe, expect, it, onTestFinished } from "vitest";
import { saveCountdown } from "#server/services/drop/drops";
import { joinLine, lineStatus } from "#server/services/drop/waiting-room";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();

function runWorker(args: string[]): Promise<{ seen: Record<string, number | null>; late: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/waiting-room-worker.ts", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, STORE_TEST_DATABASE: JSON.stringify(ctx.config.database) },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    // A test that ends first (a timeout) takes its workers with it: none outlives the file's database.
    onTestFinished(() => void child.kill("SIGKILL"));
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0 || stderr) return reject(new Error(`worker exited with ${code}:\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").pop()!) as { seen: Record<string, number | null>; late: string[] });
    });
  });
}

describe("the draw with two worker processes asking at T-0 at the same instant", () => {
  it("happens once: both see the same permutation of 1..n, and late arrivals from both get the next numbers", async () => {
    const t0 = Date.parse("2026-09-01T18:00:00.000Z");
    await saveCountdown(ctx, new Date(t0).toISOString());
    ctx.clock.set(new Date(t0 - 5 * 60_000));
    const ids: string[] = [];
    for (let i = 0; i < 400; i++) ids.push((await joinLine(ctx, { placeId: null, address: `198.51.100.${i % 200}` })).placeId!);

    const startAt = String(Date.now() + 2_500);
    const args = [ctx.config.dataDir, String(t0), startAt, ids.join(",")];
    const [a, b] = await Promise.all([runWorker([...args, "20"]), runWorker([...args, "20"])]);

    expect(a.seen).toEqual(b.seen);
    const places = ids.map((id) => a.seen[id]!);
    expect([...places].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i + 1));
    ctx.clock.set(new Date(t0 + 1000));
    const late = await Promise.all([...a.late, ...b.late].map(async (id) => (await lineStatus(ctx, { placeId: id })).status.position!));
    expect([...late].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => 401 + i));
    // Each worker's own late arrivals are in its arrival order.
    for (const worker of [a, b]) {
      const mine = worker.late.map((id) => late[[...a.late, ...b.late].indexOf(id)]!);
      expect(mine).toEqual([...mine].sort((x, y) => x - y));
    }
    // 400 joins, then two processes started: longer than the default on a loaded machine.
  }, 90_000);
});
