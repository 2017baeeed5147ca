import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawRequestListener } from "#server/http/raw-listener";
import { StoreResponse } from "#server/http/store-response";
import { configureLog, log } from "#server/observability/log";
import { routePattern } from "#server/observability/route-pattern";
import { mockServer } from "../mocks/server";
import { loggedLines, loggedText } from "../setup/log-capture";

// server.js's listener with a fast path that answers /store (the page cache's part) and an
// "Express" for the rest, each logging a line of its own while it answers.
const servers: http.Server[] = [];
// A header list kept and sent again, as the page cache keeps its copies' heads.
const KEPT_HEADS = ["Content-Type", "text/html", "Cache-Control", "no-cache"];

async function listen(options: { trustProxy?: number; cachedSample?: number }): Promise<string> {
  // As server.js makes it: the id goes into the head with the answer's own headers.
  const server = http.createServer(
    { ServerResponse: StoreResponse },
    rawRequestListener({
      brandName: "Legacy",
      ...options,
      gate: (req, res) => {
        if (req.url !== "/gate") return false;
        res.writeHead(303, { Location: "/waiting-room" }).end();
        return true;
      },
      fastPath: (req, res, next, byApp) => {
        // As the API's write door: ahead of Express, but the app's own work, not a cached copy.
        if (req.url === "/api/written") {
          byApp();
          return void res.writeHead(201, { "Content-Type": "application/json" }).end("{}");
        }
        // What the progressive API holds when a door writes its head: nothing puts node on its slow path.
        if (req.url === "/store/flat")
          return void res.writeHead(200, KEPT_HEADS).end(`set before the head: ${res.getHeaderNames().length}`);
        if (req.url === "/store/pairs") return void res.writeHead(200, "Fine", [["Content-Type", "text/html"]]).end("cached page");
        if (req.url === "/store/implicit") {
          res.setHeader("Content-Type", "text/html");
          return void res.end("cached page");
        }
        if (!req.url?.startsWith("/store")) return next();
        res.writeHead(200, { "Content-Type": "text/html" }).end("cached page");
      },
      fallback: (req, res) => {
        // As Express's app.use("/api", …) does: the mounted router sees the path without its mount.
        if (req.url?.startsWith("/api/")) req.url = req.url.slice("/api".length);
        // A handler still at work when its caller hangs up.
        if (req.url === "/slow") return;
        log.info("express answering");
        res.writeHead(req.url === "/missing" ? 404 : 200, { "Content-Type": "text/plain" }).end("express");
      },
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let plain = "";
let proxied = "";
beforeAll(async () => {
  plain = await listen({});
  proxied = await listen({ trustProxy: 1, cachedSample: 0 });
});
afterAll(() => servers.forEach((server) => server.close()));
beforeEach(() => mockServer.use(mswHttp.all("http://127.0.0.1*", () => passthrough())));

function get(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
      })
      .on("error", reject);
  });
}

/** The request lines written so far; the line is written when the answer closes, just after the client has it. */
async function requestLines() {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return loggedLines().filter((line) => line.msg === "request");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("one JSON line per request, and its id in X-Request-Id", () => {
  it("gives the fast path's, the gate's and Express's answers an id, and logs each with method, route, status, ms and worker", async () => {
    const cached = await get(plain, "/store/12?image=3");
    const gated = await get(plain, "/gate");
    const missing = await get(plain, "/missing");
    for (const answer of [cached, gated, missing]) expect(answer.headers["x-request-id"]).toMatch(UUID);
    expect(new Set([cached, gated, missing].map((answer) => answer.headers["x-request-id"])).size).toBe(3);
    const lines = await requestLines();
    expect(
      lines.map(({ requestId, method, route, status, answeredBy, worker, level }) => ({
        requestId,
        method,
        route,
        status,
        answeredBy,
        worker,
        level,
      })),
    ).toEqual([
      {
        requestId: cached.headers["x-request-id"],
        method: "GET",
        route: "/store/:id",
        status: 200,
        answeredBy: "cache",
        worker: 0,
        level: "info",
      },
      {
        requestId: gated.headers["x-request-id"],
        method: "GET",
        route: "/gate",
        status: 303,
        answeredBy: "gate",
        worker: 0,
        level: "info",
      },
      {
        requestId: missing.headers["x-request-id"],
        method: "GET",
        route: "/missing",
        status: 404,
        answeredBy: "app",
        worker: 0,
        level: "info",
      },
    ]);
    for (const line of lines) expect(line.ms).toBeTypeOf("number");
    // What Express logged while it answered carries the same id.
    expect(loggedLines().find((line) => line.msg === "express answering")?.requestId).toBe(missing.headers["x-request-id"]);
    // Every line is one JSON object.
    for (const line of loggedText().split("\n").filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("writes the id once into every kind of head: a kept flat list, pairs, an implicit head, Express's", async () => {
    const get = (path: string) =>
      new Promise<{ body: string; rawHeaders: string[]; statusMessage: string }>((resolve, reject) => {
        http
          .get(`${plain}${path}`, { agent: false }, (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => resolve({ body, rawHeaders: res.rawHeaders, statusMessage: res.statusMessage! }));
          })
          .on("error", reject);
      });
    const answers = [
      await get("/store/flat"),
      await get("/store/flat"),
      await get("/store/pairs"),
      await get("/store/implicit"),
      await get("/missing"),
    ];
    const ids = answers.map(({ rawHeaders }) => rawHeaders.filter((_, i) => i % 2 === 0 && rawHeaders[i] === "X-Request-Id").length);
    expect(ids).toEqual([1, 1, 1, 1, 1]);
    const values = answers.map(({ rawHeaders }) => rawHeaders[rawHeaders.indexOf("X-Request-Id") + 1]);
    for (const value of values) expect(value).toMatch(UUID);
    expect(new Set(values).size).toBe(5);
    expect(answers[0]!.rawHeaders).toEqual(expect.arrayContaining(["Cache-Control", "no-cache", "Content-Type", "text/html"]));
    expect(answers[2]!.statusMessage).toBe("Fine");
    expect(answers[0]!.body).toBe("set before the head: 0");
    // The kept list itself is left as it was: the next answer does not carry this one's id.
    expect(KEPT_HEADS).toEqual(["Content-Type", "text/html", "Cache-Control", "no-cache"]);
  });

  it("names the route the request asked for, whatever a mounted router made of req.url", async () => {
    const answer = await get(plain, "/api/cart/7");
    const lines = await requestLines();
    expect(lines.find((line) => line.requestId === answer.headers["x-request-id"])?.route).toBe("/api/cart/:id");
  });

  it("keeps no client's X-Request-Id without a trusted proxy", async () => {
    const answer = await get(plain, "/missing", { "X-Request-Id": "client-made-1" });
    expect(answer.headers["x-request-id"]).toMatch(UUID);
  });

  it("keeps the trusted proxy's id when it is plain, and replaces one too long or with other characters", async () => {
    expect((await get(proxied, "/missing", { "X-Request-Id": "nginx-7f3a.9:1_x" })).headers["x-request-id"]).toBe("nginx-7f3a.9:1_x");
    for (const hostile of ["x".repeat(65), "a b", "a<script>", "id\u00e9", "a,b"]) {
      expect((await get(proxied, "/missing", { "X-Request-Id": hostile })).headers["x-request-id"], hostile).toMatch(UUID);
    }
  });

  it("leaves the cache's answers out at LOG_CACHED_SAMPLE=0, still giving them an id", async () => {
    const cached = await get(proxied, "/store");
    expect(cached.headers["x-request-id"]).toMatch(UUID);
    await get(proxied, "/missing");
    const written = await get(proxied, "/api/written");
    expect(written.status).toBe(201);
    expect((await requestLines()).map(({ route, answeredBy }) => [route, answeredBy])).toEqual([
      ["/missing", "app"],
      ["/api/written", "app"],
    ]);
  });

  it("logs a caller who hung up before the answer as 499, as nginx does and as the metrics count it", async () => {
    await new Promise<void>((resolve) => {
      const request = http.get(`${plain}/slow`, { agent: false });
      request.on("error", () => resolve());
      setTimeout(() => request.destroy(), 50);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await requestLines()).map(({ route, status, aborted }) => [route, status, aborted])).toEqual([["/slow", 499, true]]);
  });

  it("follows LOG_LEVEL like every other line: none at warn, back at info", async () => {
    await configureLog({ level: "warn", format: "json" });
    try {
      await get(plain, "/missing");
      expect(await requestLines()).toEqual([]);
    } finally {
      await configureLog({ level: "info", format: "json" });
    }
    await get(plain, "/missing");
    expect((await requestLines()).map(({ route, status }) => [route, status])).toEqual([["/missing", 404]]);
  });
});

describe("routePattern", () => {
  it("names the route without ids, tokens or the query, and stays short", () => {
    expect(routePattern("/store/12?image=3")).toBe("/store/:id");
    expect(routePattern("/checkout/pay/pi_3NxYz12")).toBe("/checkout/pay/:id");
    expect(routePattern("/api/admin/orders/5/label")).toBe("/api/admin/orders/:id/label");
    expect(routePattern("/unsubscribe/abcdefabcdefabcdefabcdefabcdefabcdefabcdefX")).toBe("/unsubscribe/:id");
    expect(routePattern("/auth/reset?token=secret")).toBe("/auth/reset");
    expect(routePattern("/assets/entry.client-AbC123.js")).toBe("/assets/*");
    expect(routePattern("/store/5.data")).toBe("/store/:id.data");
    expect(routePattern("/a/b/c/d/e/f/g/h/i/j/k")).toBe("/a/b/c/d/e/f/g/h/…");
    expect(routePattern("/user@example.com")).toBe("/:id.com");
  });
});
