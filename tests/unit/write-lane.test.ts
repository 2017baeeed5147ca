import http from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { writeLane, type WriteLane } from "#server/http/write-lane";
import { installMeter, meter } from "#server/observability/meter";

/** Keeps the CPU busy for `ms`, as a write's statements and JSON do. */
function burn(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/**
 * A server whose POSTs are writes costing 3 ms of CPU and whose GETs are cached pages answered at
 * once; `answered` lists what it finished, in order. Writes go through `lane`, or run as they
 * arrive when it is left out (what the store did before decision 0065).
 */
async function store(lane?: WriteLane) {
  const answered: string[] = [];
  const server = http.createServer((req, res) => {
    // The crowd arriving (see CROWD): not counted.
    if (req.method === "HEAD") return void res.end();
    if (req.method === "GET") {
      answered.push("page");
      return void res.end("page");
    }
    req.resume();
    req.on("end", () => {
      const write = async () => {
        burn(3);
        answered.push("write");
        res.end("written");
      };
      if (lane) void lane.run(write);
      else void write();
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { port: (server.address() as AddressInfo).port, answered };
}

/**
 * The crowd, on an event loop of its own (a worker thread), as browsers are: a connection each,
 * first asking for a HEAD (node takes one new connection a turn: this is the crowd arriving);
 * then WRITES writes, and once the first is answered (the others are waiting or running), a page.
 */
const WRITES = 60;
const CROWD = `
const net = require("node:net");
const { workerData, parentPort } = require("node:worker_threads");
const browser = () => new Promise((connected, fail) => {
  const socket = net.connect(workerData.port, "127.0.0.1", () => connected(ask));
  let answered = () => {};
  socket.on("data", () => answered());
  socket.on("error", fail);
  const ask = (method) => new Promise((done) => {
    answered = done;
    socket.write(method + " / HTTP/1.1\\r\\nHost: store\\r\\nContent-Length: 0\\r\\n\\r\\n");
  });
});
(async () => {
  const crowd = await Promise.all(Array.from({ length: workerData.writes + 1 }, browser));
  await Promise.all(crowd.map((ask) => ask("HEAD")));
  const writes = crowd.slice(1).map((ask) => ask("POST"));
  await Promise.race(writes);
  await Promise.all([crowd[0]("GET"), ...writes]);
})().then(() => parentPort.postMessage("done"), (error) => parentPort.postMessage(String(error)));
`;

/** Where the page came among the answers. */
async function pagePlace(lane?: WriteLane): Promise<number> {
  const { port, answered } = await store(lane);
  const crowd = new Worker(CROWD, { eval: true, workerData: { port, writes: WRITES } });
  const outcome = await new Promise((done) => crowd.once("message", done));
  await crowd.terminate();
  expect(outcome).toBe("done");
  expect(answered.filter((what) => what === "write")).toHaveLength(WRITES);
  return answered.indexOf("page");
}

describe("the write lane (decision 0065)", () => {
  it("answers a page asked for during a crowd of writes ahead of the writes still waiting", async () => {
    // Writes of 3 ms against a turn of 10 ms: the page comes a turn or two after its asking (1 to
    // 5 writes later on a quiet machine), not after the 59 writes ahead of it.
    expect(await pagePlace(writeLane({ budgetMs: 10 }))).toBeLessThan(WRITES / 2);
  });

  it("without it, the same page waits behind every write that came before it", async () => {
    // The case the lane is for, measured the same way: the page is answered after all the writes.
    expect(await pagePlace()).toBeGreaterThanOrEqual(WRITES - 5);
  });

  it("runs the writes in the order they came, and resolves each when it is done", async () => {
    const lane = writeLane({ budgetMs: 1 });
    const ran: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        lane.run(async () => {
          burn(0.3);
          ran.push(n);
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, () => true));
    expect(ran).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(lane.waiting).toBe(0);
  });

  it("refuses a write past its waiting limit without running it, and takes writes again once there is room", async () => {
    const told: string[] = [];
    installMeter({ ...meter(), writesWaiting: (count) => told.push(`waiting ${count}`), writeRefused: () => told.push("refused") });
    onTestFinished(() => installMeter(null));
    const lane = writeLane({ waitingLimit: 3 });
    const ran: string[] = [];
    const kept = ["a", "b", "c"].map((name) => lane.run(async () => void ran.push(name)));
    expect(lane.waiting).toBe(3);
    expect(await lane.run(async () => void ran.push("d"))).toBe(false);
    expect(await Promise.all(kept)).toEqual([true, true, true]);
    expect(await lane.run(async () => void ran.push("e"))).toBe(true);
    expect(ran).toEqual(["a", "b", "c", "e"]);
    // What the metrics were told (store_writes_waiting, store_writes_refused_total).
    expect(told).toEqual([
      "waiting 1",
      "waiting 2",
      "waiting 3",
      "refused",
      "waiting 2",
      "waiting 1",
      "waiting 0",
      "waiting 1",
      "waiting 0",
    ]);
  });

  it("passes a write's failure to its caller and goes on with the next", async () => {
    const lane = writeLane();
    const ran: string[] = [];
    const failing = lane.run(async () => {
      throw new Error("the database is locked");
    });
    const throwing = lane.run(() => {
      throw new Error("thrown before any promise");
    });
    const next = lane.run(async () => void ran.push("next"));
    await expect(failing).rejects.toThrow("the database is locked");
    await expect(throwing).rejects.toThrow("thrown before any promise");
    expect(await next).toBe(true);
    expect(ran).toEqual(["next"]);
  });

  it("starts the next writes while earlier ones wait on I/O, however long one of them waits", async () => {
    const lane = writeLane();
    let running = 0;
    let most = 0;
    const io = (ms: number) =>
      lane.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((reply) => setTimeout(reply, ms));
        running--;
      });
    // A Process Order waiting on a slow vendor, then the bags behind it.
    const slow = io(400);
    const started = performance.now();
    await Promise.all(Array.from({ length: 9 }, () => io(20)));
    // Together, not one after another (9 × 20 ms), and not after the slow one.
    expect(performance.now() - started).toBeLessThan(150);
    expect(most).toBeGreaterThanOrEqual(9);
    expect(await slow).toBe(true);
  });
});
