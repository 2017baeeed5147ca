import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#db/client";
import { useAppContextForTests } from "#server/boot";
import type { AppContext } from "#server/context";
import { saveCountdown } from "#server/services/drop/drops";
import { joinLine, lineStatus, NUMBERS_PER_READ } from "#server/services/drop/waiting-room";
import { updateWaitingRoom, waitingRoomAdmin } from "#server/services/drop/waiting-room-admin";
import { twoWorkers } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

const { workerA, workerB } = twoWorkers();
beforeAll(() => useAppContextForTests(workerA));

const MINUTE = 60_000;
let dropCounter = 0;

/** A drop of this test's own: a countdown date far from the others', both workers' clocks `offsetMs` from it. */
async function newDrop(offsetMs: number): Promise<number> {
  dropCounter += 1;
  const t0 = Date.parse("2027-01-01T17:00:00.000Z") + dropCounter * 24 * 60 * MINUTE;
  await saveCountdown(workerA, new Date(t0).toISOString());
  at(t0 + offsetMs);
  return t0;
}

function at(ms: number) {
  workerA.clock.set(new Date(ms));
  workerB.clock.set(new Date(ms));
}

const address = (i: number) => `198.51.${(i >> 8) & 255}.${i & 255}`;

async function join(ctx: AppContext, i: number): Promise<string> {
  const result = await joinLine(ctx, { placeId: null, address: address(i) });
  expect(result.joined).toBe(true);
  return result.placeId!;
}

async function positions(ctx: AppContext, ids: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const id of ids) out.push((await lineStatus(ctx, { placeId: id })).status.position!);
  return out;
}

async function admittedAmong(ctx: AppContext, ids: string[]): Promise<number> {
  let n = 0;
  for (const id of ids) if ((await lineStatus(ctx, { placeId: id })).status.state === "admitted") n += 1;
  return n;
}

/**
 * `n` places joined in the five minutes before `t0`, as joinLine writes them but put in directly:
 * thousands of joins one by one would take seconds. Their ids, in joining order.
 */
async function placesPutIn(t0: number, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => crypto.randomBytes(18).toString("base64url"));
  const dropAt = new Date(t0).toISOString();
  for (let from = 0; from < n; from += 400) {
    await workerA.db
      .insertInto("waitingRoomPlaces")
      .values(
        ids.slice(from, from + 400).map((id, k) => ({
          id,
          dropAt,
          place: null,
          address: address(from + k),
          joinedAt: new Date(t0 - 5 * MINUTE + from + k).toISOString(),
          admittedAt: null,
        })),
      )
      .execute();
  }
  return ids;
}

/** Spearman's rank correlation of two rankings of the same n items (both permutations of 1..n). */
function rankCorrelation(a: number[], b: number[]): number {
  const n = a.length;
  const d2 = a.reduce((sum, x, i) => sum + (x - b[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

describe("the waiting room's fair start", () => {
  it("draws the early group's places at T-0 once, as a permutation unrelated to arrival order, whichever worker asks first", async () => {
    const t0 = await newDrop(-10 * MINUTE);
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      ids.push(await join(i % 2 ? workerA : workerB, i));
      at(t0 - 10 * MINUTE + (i + 1) * 1000);
    }
    // Before T-0 nobody has a number yet.
    expect((await lineStatus(workerA, { placeId: ids[0]! })).status).toEqual({
      state: "before",
      position: null,
      ahead: null,
      etaSeconds: null,
      admittedUntil: null,
    });

    at(t0);
    // The first worker to ask after T-0 draws (inside a BEGIN IMMEDIATE transaction that marks the
    // drop drawn); the other finds it done.
    await lineStatus(workerA, { placeId: ids[0]! });
    await lineStatus(workerB, { placeId: ids[1]! });
    const drawn = await positions(workerB, ids);
    expect([...drawn].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i + 1));
    const arrival = ids.map((_, i) => i + 1);
    // For a random order of 300 the correlation's spread is about 0.06; arrival order would be 1.
    expect(Math.abs(rankCorrelation(arrival, drawn))).toBeLessThan(0.3);
    // Drawn once: asking again, on either worker, finds the same places.
    expect(await positions(workerA, ids)).toEqual(drawn);
  });

  it("draws a line longer than one written batch as one permutation of 1..n", async () => {
    const t0 = await newDrop(-5 * MINUTE);
    const n = 1_201;
    const ids = await placesPutIn(t0, n);
    const dropAt = new Date(t0).toISOString();
    at(t0);
    const drawn = await positions(workerA, ids);
    expect([...drawn].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i + 1));
    expect(
      Math.abs(
        rankCorrelation(
          ids.map((_, i) => i + 1),
          drawn,
        ),
      ),
    ).toBeLessThan(0.2);
    // The other worker, and the rows themselves, say the same.
    expect(await positions(workerB, ids)).toEqual(drawn);
    const rows = await workerA.db.selectFrom("waitingRoomPlaces").select(["id", "place"]).where("dropAt", "=", dropAt).execute();
    expect(new Map(rows.map((row) => [row.id, row.place]))).toEqual(new Map(ids.map((id, i) => [id, drawn[i]!])));
  });

  it("answers the line's first polls after the draw from one read of the numbers, not one read a visitor", async () => {
    const t0 = await newDrop(-5 * MINUTE);
    await updateWaitingRoom(workerA, { paused: true, admitPerMinute: 60, perAddress: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await join(workerA, i));
    // The polling worker, with every statement it sends counted.
    let statements = 0;
    const counting: AppContext = {
      ...workerB,
      db: workerB.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          statements += 1;
          return args.result;
        },
      }),
    };
    for (const id of ids) expect((await lineStatus(counting, { placeId: id })).status.state).toBe("before");

    at(t0);
    await lineStatus(workerA, { placeId: ids[0]! });
    // Past the second the polling worker keeps the room for.
    at(t0 + 1_000);
    statements = 0;
    const polled = await positions(counting, ids);
    // The room (its row and the drop's date), then the numbers: 40 visitors, 3 statements.
    expect(statements).toBeLessThanOrEqual(3);
    expect(polled).toEqual(await positions(workerA, ids));
    expect([...polled].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i + 1));
  });

  it("reads a long line's numbers a few thousand a statement, the worker free to answer between reads", async () => {
    const t0 = await newDrop(-5 * MINUTE);
    await updateWaitingRoom(workerA, { paused: true, admitPerMinute: 60, perAddress: 100 });
    const n = NUMBERS_PER_READ + 1;
    const ids = await placesPutIn(t0, n);
    const dropAt = new Date(t0).toISOString();
    // Every statement the polling worker sends, and the rows each answered.
    const answered: number[] = [];
    const counting: AppContext = {
      ...workerB,
      db: workerB.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          answered.push(args.result.rows.length);
          return args.result;
        },
      }),
    };
    // The polling worker keeps every place while the line waits.
    for (const id of ids) expect((await lineStatus(counting, { placeId: id })).status.state).toBe("before");
    at(t0);
    await lineStatus(workerA, { placeId: ids[0]! });
    at(t0 + 1_000);
    answered.length = 0;

    // Something else the worker has to do, asked for as the first poll after the draw starts.
    let answeredMeanwhile = false;
    const first = lineStatus(counting, { placeId: ids[0]! });
    setImmediate(() => (answeredMeanwhile = true));
    const { status } = await first;
    expect(answeredMeanwhile).toBe(true);
    expect(status.position).toBeGreaterThan(0);
    // The room (its row and the drop's date), then two reads of the numbers: all of them, at most
    // NUMBERS_PER_READ a read, and the line's other polls need no statement.
    const polled = await positions(counting, ids);
    expect(answered).toEqual([1, 1, NUMBERS_PER_READ, 1]);
    expect([...polled].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i + 1));
    // The numbers the rows hold, read once rather than polled again (5,001 polls take seconds on PostgreSQL).
    const rows = await workerA.db.selectFrom("waitingRoomPlaces").select(["id", "place"]).where("dropAt", "=", dropAt).execute();
    const held = new Map(rows.map((row) => [row.id, row.place]));
    expect(polled).toEqual(ids.map((id) => held.get(id)));
  }, 120_000);

  it("queues later arrivals in arrival order behind the early group", async () => {
    const t0 = await newDrop(-5 * MINUTE);
    for (let i = 0; i < 50; i++) await join(workerA, i);
    at(t0 + 1000);
    const late: string[] = [];
    for (let i = 50; i < 80; i++) {
      late.push(await join(i % 2 ? workerA : workerB, i));
      at(t0 + 1000 + (i - 49) * 10);
    }
    expect(await positions(workerA, late)).toEqual(late.map((_, i) => 51 + i));
  });
});

describe("admission", () => {
  it("lets the line in at admitPerMinute (within 10 % over a minute), in place order", async () => {
    const t0 = await newDrop(-MINUTE);
    await updateWaitingRoom(workerA, { admitPerMinute: 300, perAddress: 2000 });
    const ids: string[] = [];
    for (let i = 0; i < 600; i++) ids.push((await joinLine(workerA, { placeId: null, address: "203.0.113.1" })).placeId!);
    at(t0 + MINUTE);
    const admitted = await admittedAmong(workerB, ids);
    expect(admitted).toBeGreaterThanOrEqual(270);
    expect(admitted).toBeLessThanOrEqual(330);
    // Exactly the first places are in.
    const byPlace = await positions(workerA, ids);
    for (const [i, id] of ids.entries()) {
      const { status } = await lineStatus(workerA, { placeId: id });
      expect(status.state, `place ${byPlace[i]}`).toBe(byPlace[i]! <= admitted ? "admitted" : "waiting");
    }
    const figures = await waitingRoomAdmin(workerA);
    expect(figures).toMatchObject({ admitted, waiting: 600 - admitted, admitPerMinute: 300, paused: false, phase: "open" });
  });

  it("tells a waiting shopper how many are ahead and the estimated wait", async () => {
    const t0 = await newDrop(-MINUTE);
    await updateWaitingRoom(workerA, { admitPerMinute: 60 });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await join(workerA, i));
    at(t0 + 3000);
    const tenth = (await positions(workerA, ids)).indexOf(10);
    expect((await lineStatus(workerA, { placeId: ids[tenth]! })).status).toEqual({
      state: "waiting",
      position: 10,
      ahead: 6,
      etaSeconds: 7,
      admittedUntil: null,
    });
  });

  it("admits nobody while paused, and goes on at the rate from where it stopped after resuming", async () => {
    const t0 = await newDrop(-MINUTE);
    await updateWaitingRoom(workerA, { admitPerMinute: 120, perAddress: 2000 });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await joinLine(workerA, { placeId: null, address: "203.0.113.2" })).placeId!);
    at(t0 + 30_000);
    expect(await admittedAmong(workerA, ids)).toBe(60);
    await updateWaitingRoom(workerB, { paused: true });
    at(t0 + 90_000);
    expect(await admittedAmong(workerA, ids)).toBe(60);
    const first = ids[(await positions(workerA, ids)).indexOf(1)]!;
    const paused = await lineStatus(workerA, { placeId: first });
    expect(paused.status.state).toBe("admitted");
    expect((await waitingRoomAdmin(workerA)).paused).toBe(true);
    await updateWaitingRoom(workerA, { paused: false });
    at(t0 + 120_000);
    expect(await admittedAmong(workerB, ids)).toBe(120);
  });

  it("lets an arrival straight through when nobody is waiting, but a crowd arriving later still goes at the rate", async () => {
    const t0 = await newDrop(10 * MINUTE);
    await updateWaitingRoom(workerA, { admitPerMinute: 60, perAddress: 2000 });
    const first = await joinLine(workerA, { placeId: null, address: "203.0.113.3" });
    expect(first.status.state).toBe("admitted");
    const crowd: string[] = [];
    for (let i = 0; i < 20; i++) crowd.push((await joinLine(workerA, { placeId: null, address: "203.0.113.3" })).placeId!);
    // One second's worth (1 at 60 a minute) more than the line went in at once, not ten minutes' worth.
    expect(await admittedAmong(workerA, crowd)).toBe(0);
    at(t0 + 10 * MINUTE + 10_000);
    expect(await admittedAmong(workerA, crowd)).toBe(10);
  });

  it("admits nobody while paused, not even an arrival who finds the line empty", async () => {
    const t0 = await newDrop(5 * MINUTE);
    await updateWaitingRoom(workerA, { admitPerMinute: 600, perAddress: 2000 });
    expect((await joinLine(workerA, { placeId: null, address: "203.0.113.4" })).status.state).toBe("admitted");
    at(t0 + 6 * MINUTE);
    await updateWaitingRoom(workerB, { paused: true });
    const arrival = await joinLine(workerA, { placeId: null, address: "203.0.113.4" });
    expect(arrival.status).toMatchObject({ state: "waiting", position: 2, ahead: 0, etaSeconds: null });
    at(t0 + 10 * MINUTE);
    expect((await lineStatus(workerB, { placeId: arrival.placeId })).status.state).toBe("waiting");
    await updateWaitingRoom(workerB, { paused: false });
    at(t0 + 10 * MINUTE + 100);
    expect((await lineStatus(workerB, { placeId: arrival.placeId })).status.state).toBe("admitted");
  });

  it("gives one place per browser and at most perAddress places per address", async () => {
    await newDrop(-MINUTE);
    await updateWaitingRoom(workerA, { perAddress: 2 });
    const jar = new CookieJar();
    const joined = await api("POST", "/api/waiting-room", { jar, ip: "192.0.2.50" });
    expect(joined.status).toBe(201);
    const again = await api("POST", "/api/waiting-room", { jar, ip: "192.0.2.50" });
    expect(again.status).toBe(200);
    expect(await api("POST", "/api/waiting-room", { ip: "192.0.2.50" }).then((r) => r.status)).toBe(201);
    const third = await api("POST", "/api/waiting-room", { ip: "192.0.2.50" });
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({
      message: "Too many places in line from your network. Please use the place you already have.",
    });
    const rows = await workerA.db.selectFrom("waitingRoomPlaces").select("id").where("address", "=", "192.0.2.50").execute();
    expect(rows).toHaveLength(2);
    await updateWaitingRoom(workerA, { perAddress: 20 });
  });

  it("counts an IPv6 /64 as one address, and ::ffff:a.b.c.d as a.b.c.d, for perAddress", async () => {
    await newDrop(-MINUTE);
    await updateWaitingRoom(workerA, { perAddress: 2 });
    const join = (ip: string) => api("POST", "/api/waiting-room", { ip }).then((r) => r.status);
    expect(await join("2001:db8:5:6::1")).toBe(201);
    expect(await join("2001:db8:5:6::2")).toBe(201);
    expect(await join("2001:db8:5:6:abcd::3")).toBe(429);
    expect(await join("2001:db8:5:7::1")).toBe(201);
    expect(await join("192.0.2.51")).toBe(201);
    expect(await join("::ffff:192.0.2.51")).toBe(201);
    expect(await join("::ffff:c000:233")).toBe(429);
    await updateWaitingRoom(workerA, { perAddress: 20 });
  });
});

describe("the pass", () => {
  async function admittedShopper() {
    const t0 = await newDrop(-MINUTE);
    await updateWaitingRoom(workerA, { admitPerMinute: 300, passMinutes: 15 });
    const productId = await addProduct(workerA, { name: "Waiting Room Tee", inventory: 50 });
    const jar = new CookieJar();
    expect((await api("POST", "/api/waiting-room", { jar })).status).toBe(201);
    at(t0 + MINUTE);
    const status = await api("GET", "/api/waiting-room", { jar });
    expect(status.status).toBe(200);
    expect(status.headers.get("Cache-Control")).toBe("private, no-store");
    const body = (await status.json()) as { state: string; admittedUntil: string };
    expect(body.state).toBe("admitted");
    expect(body.admittedUntil).toBe(new Date(t0 + MINUTE + 15 * MINUTE).toISOString());
    expect(jar.has("waiting_room_pass")).toBe(true);
    return { t0, jar, productId };
  }

  const addToBag = (jar: CookieJar | undefined, productId: number, headers?: HeadersInit) =>
    api("POST", "/api/cart", { jar, body: { productId, quantity: 1 }, headers });

  it("lets its holder buy; without one, a purchase is 429 with Retry-After and the way to the line", async () => {
    const { jar, productId } = await admittedShopper();
    expect((await addToBag(jar, productId)).status).toBe(201);
    const refused = await addToBag(undefined, productId);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: "The drop is busy. Please join the line.", waitingRoomUrl: "/waiting-room" });
    const order = await api("POST", "/api/process-order", { body: {} });
    expect(order.status).toBe(429);
  });

  it("is refused once tampered with: another place, a later expiry or admission, or a forged signature", async () => {
    const { jar, productId } = await admittedShopper();
    expect((await addToBag(jar, productId)).status).toBe(201);
    const token = decodeURIComponent(/waiting_room_pass=([^;]+)/.exec(jar.header())![1]!);
    const [subject, expires, drop, admitted, sig] = token.split(".") as [string, string, string, string, string];
    const forged = [
      `${subject.slice(0, -1)}${subject.endsWith("A") ? "B" : "A"}.${expires}.${drop}.${admitted}.${sig}`,
      `${subject}.${Number(expires) + 3_600_000}.${drop}.${admitted}.${sig}`,
      `${subject}.${expires}.${drop}.${Number(admitted) + 3_600_000}.${sig}`,
      `${subject}.${expires}.${drop}.${admitted}.${sig.slice(0, -2)}AA`,
    ];
    for (const pass of forged) {
      const response = await addToBag(undefined, productId, { Cookie: `waiting_room_pass=${encodeURIComponent(pass)}` });
      expect(response.status, pass).toBe(429);
    }
    const lines = await workerA.db.selectFrom("cartItems").select("id").where("productId", "=", productId).execute();
    expect(lines).toHaveLength(1);
  });

  it("runs out after passMinutes: the purchase is refused and the place is spent", async () => {
    const { t0, jar, productId } = await admittedShopper();
    at(t0 + MINUTE + 15 * MINUTE - 1000);
    expect((await addToBag(jar, productId)).status).toBe(201);
    at(t0 + MINUTE + 15 * MINUTE);
    expect((await addToBag(jar, productId)).status).toBe(429);
    const status = (await (await api("GET", "/api/waiting-room", { jar })).json()) as { state: string; position: number | null };
    expect(status).toMatchObject({ state: "waiting", position: null });
  });
});

describe("a restart", () => {
  it("keeps every place: a fresh connection to the file finds each browser where it was", async () => {
    const t0 = await newDrop(-2 * MINUTE);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await join(workerA, i));
    at(t0 + 5000);
    for (let i = 40; i < 60; i++) ids.push(await join(workerB, i));
    const before = await Promise.all(ids.map(async (id) => (await lineStatus(workerA, { placeId: id })).status));
    const restarted: AppContext = { ...workerA, db: openDatabase(workerA.config.database) };
    try {
      const after = await Promise.all(ids.map(async (id) => (await lineStatus(restarted, { placeId: id })).status));
      expect(after).toEqual(before);
      expect(new Set(after.map((s) => s.position)).size).toBe(60);
    } finally {
      await restarted.db.destroy();
    }
  });
});

describe("outside the window", () => {
  it("changes nothing: no place, no pass needed", async () => {
    const t0 = await newDrop(-20 * MINUTE);
    const productId = await addProduct(workerA, { name: "Before Window Tee" });
    const joined = await api("POST", "/api/waiting-room");
    expect(await joined.json()).toEqual({ state: "closed", position: null, ahead: null, etaSeconds: null, admittedUntil: null });
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 } })).status).toBe(201);
    at(t0 + 120 * MINUTE);
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 } })).status).toBe(201);
  });

  it("ends when the admin ends it", async () => {
    await newDrop(5 * MINUTE);
    const productId = await addProduct(workerA, { name: "Ended Room Tee" });
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 } })).status).toBe(429);
    expect((await updateWaitingRoom(workerA, { ended: true })).phase).toBe("ended");
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 } })).status).toBe(201);
  });
});
