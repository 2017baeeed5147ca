// Every door of the built store knocked on as a bot would, signed out and as the admin: hostile
// path ids, queries, bodies, content types, encodings and headers, from a fixed seed. The doors
// are read from the source (the REST router's table, the tRPC router, app/routes), so a door
// added later is knocked on too. Nothing may answer 500 or fail to answer, no worker may die, and
// no line above info may be written: a stranger's mistake is a 4xx and a request line, never
// a warning or an error.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { apiRouter } from "#server/api/dispatch";
import { appRouter } from "#server/trpc/router";
import { DEFAULT_ADMIN } from "#server/config";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { answeringPids, sendByHand, sendRaw } from "../setup/raw-http";
import { cookiesOf, failuresOf, loudLines, seeded } from "../setup/fuzz";
import { switchWaitingRoom } from "../setup/waiting-room-switch";

const built = builtStoreForFile("every-door-fuzz");
let adminCookie = "";

beforeAll(async () => {
  const login = await sendRaw(
    built.store.baseUrl,
    "POST",
    "/api/login",
    { "Content-Type": "application/json" },
    JSON.stringify(DEFAULT_ADMIN),
  );
  expect(login.status).toBe(200);
  adminCookie = cookiesOf(login);
}, 330_000);

/** A Remix flat-routes file name as the path it serves: `draws.$id_.claim.$token` is /draws/:id/claim/:token. */
function routePath(file: string): string {
  const segments = file
    .replace(/\.tsx?$/, "")
    .split(".")
    .filter((segment) => !segment.startsWith("_"))
    .map((segment) => segment.replace(/_$/, ""))
    .map((segment) => (segment === "$" ? "*" : segment.startsWith("$") ? `:${segment.slice(1)}` : segment));
  return `/${segments.join("/")}`;
}

const PARAMS = [
  "0",
  "-1",
  "2147483648",
  "99999999999999999999999",
  "1e3",
  "1.5",
  "%",
  "%00",
  "%E2%82",
  "%FF",
  "..",
  "..%2F..%2Fetc%2Fpasswd",
  "abc",
  "x".repeat(3000),
  "%C0%AE",
  "NaN",
  "Infinity",
  "0x10",
  "%20",
  "__proto__",
  "constructor",
  "1.data",
  "a%2Fb",
];
const QUERIES = [
  "",
  "?",
  "?page=-1",
  "?page=1e400",
  "?page=Infinity",
  "?pageSize=100000",
  "?page=abc&page=2",
  "?size=%",
  "?size=%E2%82&color=%FF",
  "?image=-5",
  "?from=2026-13-45&to=x",
  "?from=9999-99-99",
  "?_data=root",
  "?_data=%",
  "?index",
  `?q=${"y".repeat(5000)}`,
  "?a[b][c]=1",
  "?__proto__[x]=1",
  "?input=%7B",
  "?batch=1&input=%5B",
  "?redirectTo=//evil.example",
  "?redirectTo=%0d%0a",
  "?token=..%2F",
  "?email=%40",
  "?id=%00",
];
const KEYS = [
  "productId",
  "quantity",
  "size",
  "color",
  "email",
  "name",
  "username",
  "password",
  "id",
  "status",
  "text",
  "value",
  "countdownDate",
  "items",
  "address",
  "shipping",
  "paymentIntentId",
  "token",
  "images",
  "price",
  "inventory",
  "sizes",
  "subject",
  "body",
  "minutes",
  "enabled",
  "releaseDate",
  "country",
  "zip",
  "currentPassword",
  "newPassword",
  "type",
  "intent",
  "page",
  "cursor",
  "json",
];

type Random = ReturnType<typeof seeded>;

function hostileValue(random: Random, depth = 0): unknown {
  const r = random.next();
  if (depth > 3) return random.pick([null, 1, "s"]);
  if (r < 0.1) return null;
  if (r < 0.2) return random.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, 1e-320]);
  if (r < 0.3) {
    return random.pick([
      "",
      " ",
      "%",
      "\u0000",
      "\ud800",
      depth === 0 ? "a".repeat(20_000) : "a".repeat(300),
      "<script>alert(1)</script>",
      "2026-02-30T25:61:00Z",
      "not-an-email",
      "../../x",
      "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
      "\u202e",
    ]);
  }
  if (r < 0.4) return random.pick([true, false]);
  if (r < 0.5) {
    if (depth === 0 && random.next() < 0.3) return Array.from({ length: 2000 }, () => 1);
    return Array.from({ length: random.pick([0, 1, 3]) }, () => hostileValue(random, depth + 1));
  }
  if (r < 0.6) return JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}');
  const object: Record<string, unknown> = {};
  for (let i = 0; i < random.pick([1, 3, 6]); i++) object[random.pick(KEYS)] = hostileValue(random, depth + 1);
  return object;
}

interface Body {
  type: string;
  data: string | Buffer;
  encoding?: string;
}

function hostileBody(random: Random): Body {
  const r = random.next();
  if (r < 0.35) return { type: "application/json", data: JSON.stringify(hostileValue(random)) ?? "" };
  if (r < 0.45) {
    return {
      type: "application/json",
      data: random.pick([
        "{",
        "[",
        '{"a":',
        "nul",
        "\u0000",
        '{"a":1}garbage',
        "[".repeat(5000) + "]".repeat(5000),
        "1e99999",
        '{"a":"\\ud800"}',
      ]),
    };
  }
  if (r < 0.6) {
    const intent = random.pick(["details", "pay", "increment", "remove", "delete", "update", "add", "x"]);
    return {
      type: "application/x-www-form-urlencoded",
      data: random.pick([
        "intent=add&productId=%",
        "%=%",
        "a=%E2%82",
        `size=${"z".repeat(9000)}`,
        `intent=${intent}&productId=${random.pick(PARAMS)}&quantity=${random.pick(PARAMS)}`,
        "email=%40&name=%00",
        "__proto__[x]=1&constructor[prototype][y]=2",
        "a=1&".repeat(3000),
      ]),
    };
  }
  if (r < 0.7) {
    return {
      type: "multipart/form-data; boundary=XYZ",
      data: random.pick([
        '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnotapng\r\n--XYZ--\r\n',
        "--XYZ\r\nbroken",
        "garbage",
        `--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n${"b".repeat(10_000)}`,
      ]),
    };
  }
  if (r < 0.75) return { type: "multipart/form-data", data: "no boundary" };
  if (r < 0.8) return { type: "text/plain", data: "hello" };
  if (r < 0.85) return { type: "application/json; charset=utf-16", data: "{}" };
  if (r < 0.9) {
    const json = JSON.stringify(hostileValue(random)) ?? "";
    return {
      type: "application/json",
      data: random.next() < 0.5 ? zlib.gzipSync(json) : "not gzip",
      encoding: random.pick(["gzip", "br", "deflate", "x"]),
    };
  }
  return {
    type: random.pick(["", "application/xml", "application/json, text/html", "application/csp-report"]),
    data: random.pick(["", "<x/>", "{}", JSON.stringify({ "csp-report": hostileValue(random) })]),
  };
}

interface Knock {
  method: string;
  path: string;
  asAdmin: boolean;
}

interface DressedKnock extends Knock {
  headers: Record<string, string>;
  data?: string | Buffer;
}

/** A knock's headers and body, drawn as the corpus is made (not as answers come back), so every run sends the same. */
function dress(random: Random, knock: Knock): DressedKnock {
  const headers: Record<string, string> = {
    Accept: random.pick(["application/json", "text/html", "*/*", "", "text/html;q=%"]),
    "Accept-Encoding": random.pick(["br, gzip", "gzip", "identity", "br;q=x", "*", ""]),
  };
  if (random.next() < 0.1) headers["If-None-Match"] = random.pick(['W/"x"', "*", `"${"e".repeat(500)}`, ","]);
  if (random.next() < 0.1) headers["X-Forwarded-For"] = random.pick(["1.1.1.1, 2.2.2.2", "garbage", "::ffff:1.2.3.4", "%"]);
  if (random.next() < 0.05) headers.Origin = random.pick(["null", "http://evil.example", "%"]);
  if (random.next() < 0.05) headers.Range = "bytes=0-1";
  if (knock.method === "GET" || knock.method === "HEAD") return { ...knock, headers };
  const body = hostileBody(random);
  if (body.type) headers["Content-Type"] = body.type;
  if (body.encoding) headers["Content-Encoding"] = body.encoding;
  return { ...knock, headers, data: body.data };
}

/** Every door: the REST table's paths and methods, each tRPC procedure, each page and its `.data`. */
function everyDoor(): { method: string; pattern: string; admin: boolean }[] {
  const doors: { method: string; pattern: string; admin: boolean }[] = [];
  for (const entry of apiRouter.entries) {
    if (entry.path.includes("*")) continue; // tRPC's door: its procedures are listed below
    for (const method of entry.methods) doors.push({ method, pattern: entry.path, admin: entry.path !== "/api/logout" });
  }
  const pages = fs
    .readdirSync(path.resolve(import.meta.dirname, "../../app/routes"))
    .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("api."))
    .map(routePath);
  for (const page of pages) {
    const pattern = page.replace("*", "x/y");
    // POST /admin is the admin's sign-out: knocked on signed out only, so the admin's knocks stay signed in.
    for (const method of ["GET", "POST"]) doors.push({ method, pattern, admin: !(method === "POST" && pattern === "/admin") });
    if (!pattern.endsWith("/")) doors.push({ method: "GET", pattern: `${pattern}.data`, admin: true });
  }
  return doors;
}

function corpus(random: Random): Knock[] {
  const knocks: Knock[] = [];
  // Flat at run time ("admin.orders.list"), whatever its declared type says.
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>);
  for (let round = 0; round < 3; round++) {
    for (const door of everyDoor()) {
      for (const asAdmin of door.admin ? [false, true] : [false]) {
        const target = door.pattern.replace(/:\w+/g, () => random.pick(PARAMS)) + random.pick(QUERIES);
        knocks.push({ method: door.method, path: target, asAdmin });
        if (random.next() < 0.2)
          knocks.push({ method: random.pick(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]), path: target, asAdmin });
      }
    }
    for (const [name, procedure] of procedures) {
      for (const asAdmin of [false, true]) {
        const input = random.next() < 0.2 ? "%7B" : encodeURIComponent(JSON.stringify(hostileValue(random)) ?? "");
        const [method, other] = procedure._def.type === "query" ? ["GET", "POST"] : ["POST", "GET"];
        knocks.push({ method, path: `/api/trpc/${name}${method === "GET" ? `?input=${input}` : ""}`, asAdmin });
        knocks.push({ method: other, path: `/api/trpc/${name}`, asAdmin });
        const batch = encodeURIComponent(JSON.stringify({ 0: hostileValue(random), 1: hostileValue(random) }));
        knocks.push({ method: "GET", path: `/api/trpc/${name},${random.pick(procedures)[0]}?batch=1&input=${batch}`, asAdmin });
      }
    }
  }
  return knocks;
}

describe("every door knocked on with hostile input", () => {
  // Off, and on as in a drop's window: the gate reads every request to the store, bag and checkout first.
  it.each([false, true])(
    "answers each one below 500, keeps both workers and writes no line above info (waiting room on: %s)",
    async (on) => {
      await switchWaitingRoom(built.db, built.store.baseUrl, on);
      const logFrom = built.store.log().length;
      const random = seeded(on ? 24_212 : 24_211);
      const knocks = corpus(random).map((knock) => dress(random, knock));
      const before = await answeringPids(built.store.baseUrl, 2);
      expect(before.size).toBe(2);
      const failures = await failuresOf(
        built.store.baseUrl,
        knocks.map(({ method, path: target, asAdmin, headers, data }) => ({
          method,
          path: target,
          headers: asAdmin ? { ...headers, Cookie: adminCookie } : headers,
          body: data,
        })),
        8,
      );
      expect(knocks.length).toBeGreaterThan(1500);
      expect(failures).toEqual([]);
      // The admin's knocks were the admin's to the end (none of them signed the admin out).
      const user = await sendRaw(built.store.baseUrl, "GET", "/api/user", { Accept: "application/json", Cookie: adminCookie });
      expect(JSON.parse(user.body)).toMatchObject({ username: DEFAULT_ADMIN.username });
      const after = await answeringPids(built.store.baseUrl, 2, 5_000);
      expect([...after].sort()).toEqual([...before].sort());
      // Lines are written as each answer ends: give the last a moment to reach the log.
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Every line is the logger's JSON at info: nothing reached stderr past it.
      expect(loudLines(built.store.log().slice(logFrom))).toEqual([]);
      expect(built.store.log()).not.toMatch(/Worker \d+ stopped/);
    },
    240_000,
  );
});

describe("requests written by hand", () => {
  const host = "Host: shop.example\r\n";
  const cases: [string, (status: number) => boolean][] = [
    // The absolute form is served as its path (RFC 9112 §3.2.2); the asterisk only means something to OPTIONS.
    [`GET http://shop.example/store HTTP/1.1\r\n${host}\r\n`, (status) => status === 200],
    [`GET * HTTP/1.1\r\n${host}\r\n`, (status) => status === 400],
    [`GET ftp://shop.example/store HTTP/1.1\r\n${host}\r\n`, (status) => status === 400],
    // Ways out of a folder: never a file.
    ...[
      "/assets/../../etc/passwd",
      "/assets/%2e%2e%2f%2e%2e%2fpackage.json",
      "/uploads/%2e%2e%2f.session-secret",
      "/uploads/..%2f.session-secret",
      "/uploads/a%5c..%5c..%5c.session-secret",
      "/uploads/%00",
      "/store/%2e%2e/admin",
      `http://shop.example/uploads/%2e%2e%2f.session-secret`,
    ].map((target): [string, (status: number) => boolean] => [
      `GET ${target} HTTP/1.1\r\n${host}\r\n`,
      (status) => status === 404 || status === 302 || status === 400,
    ]),
    // Framing and headers node's parser or the store must refuse, or take whole.
    [`GET /store HTTP/1.1\r\n\r\n`, (status) => status === 400],
    [`GET /store HTTP/1.1\r\nHost: x:99999\r\n\r\n`, (status) => status === 400],
    [`GET /store HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, (status) => status < 500],
    [
      `POST /api/cart HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      (status) => status === 400,
    ],
    [
      `POST /api/cart HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      (status) => status === 400,
    ],
    [
      `POST /api/cart HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      (status) => status === 400,
    ],
    [
      `POST /api/cart HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{}`,
      (status) => status === 400 || status === 0,
    ],
    [`GET /store HTTP/1.1\r\n${host}${"X-A: b\r\n".repeat(2000)}\r\n`, (status) => status < 500],
    [`GET /store HTTP/1.1\r\n${host}Cookie: ${"a=b; ".repeat(3000)}\r\n\r\n`, (status) => status < 500],
    [`GET /store HTTP/1.1\r\n${host}Accept-Encoding: ${"br;q=0.5, ".repeat(1000)}\r\n\r\n`, (status) => status < 500],
    [`GET /store HTTP/1.1\r\n${host}If-None-Match: ${'W/"a", '.repeat(1000)}\r\n\r\n`, (status) => status < 500],
    [`GET /store?${"a=1&".repeat(4000)} HTTP/1.1\r\n${host}\r\n`, (status) => status < 500],
    [`GET /healthz HTTP/1.1\r\n${host}X-Request-Id: ${"%".repeat(500)}\r\n\r\n`, (status) => status === 200],
    [`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, (status) => status === 400],
    [`GET /store HTTP/9.9\r\n${host}\r\n`, (status) => status === 400 || status === 505],
    [`GET /\u00e9 HTTP/1.1\r\n${host}\r\n`, (status) => status === 400],
  ];

  it("answers each as the RFC and the store's own rules say, never 500, and writes no line above info", async () => {
    await switchWaitingRoom(built.db, built.store.baseUrl, false);
    const logFrom = built.store.log().length;
    const before = await answeringPids(built.store.baseUrl, 2);
    const answers = await Promise.all(cases.map(([bytes]) => sendByHand(built.store.baseUrl, bytes)));
    const wrong = cases
      .map(([bytes, expected], index) => ({
        request: bytes.slice(0, 80),
        status: answers[index]!.status,
        ok: expected(answers[index]!.status),
      }))
      .filter((answer) => !answer.ok);
    expect(wrong).toEqual([]);
    expect(answers[0]!.text).toContain("<title>");
    const after = await answeringPids(built.store.baseUrl, 2, 5_000);
    expect([...after].sort()).toEqual([...before].sort());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loudLines(built.store.log().slice(logFrom))).toEqual([]);
  }, 60_000);
});
