import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { INTERNAL_HEADERS } from "#server/http/requests/internal-headers";
import { rawRequestListener } from "#server/http/raw-listener";
import { mockServer } from "../mocks/server";
import { expectLoggedErrors, loggedAt, loggedLines } from "../setup/log-capture";

// server.js's listener with stand-ins for the gate, the fast path and Express, each of which can
// be made to throw: one request fails, the server goes on answering the next.
let base = "";
let server: http.Server;
const reachedExpress: string[] = [];

beforeAll(async () => {
  server = http.createServer(
    rawRequestListener({
      brandName: "Legacy <Test>",
      gate: (req) => {
        if (req.url === "/gate-throws") throw new Error("gate bug");
        if (req.url === "/gate-rejects" || req.url === "/api/gate-rejects") return Promise.reject(new Error("database gone"));
        if (req.url === "/gate-later") return Promise.resolve(false);
        if (req.url === "/gate-db-lost" || req.url === "/api/gate-db-lost")
          return Promise.reject(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }));
        return false;
      },
      fastPath: (req, _res, next) => {
        if (req.url === "/fast-throws") throw new TypeError("cache bug");
        if (req.url === "/gate-later") return void Promise.resolve().then(next);
        next();
      },
      fallback: (req, res) => {
        if (req.url === "/express-throws") throw new RangeError("express bug");
        reachedExpress.push(req.url!);
        if (req.url!.startsWith("/host"))
          return void res
            .writeHead(200, { "Content-Type": "text/plain", "Content-Length": String(req.headers.host!.length) })
            .end(req.headers.host);
        res.writeHead(200, { "Content-Type": "text/plain" }).end(`express ${INTERNAL_HEADERS.map((h) => req.headers[h] ?? "-").join(",")}`);
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());
beforeEach(() => {
  reachedExpress.length = 0;
  mockServer.use(mswHttp.all(`${base}/*`, () => passthrough()));
});

function raw(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers, agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on("error", reject)
      .end();
  });
}

describe("server.js's request listener", () => {
  it("answers a throw in the gate, the fast path or Express with the branded 500 page, logs it, and answers the next request", async () => {
    expectLoggedErrors();
    const failedIds: string[] = [];
    for (const path of ["/gate-throws", "/gate-rejects", "/fast-throws", "/express-throws"]) {
      const failed = await raw(path);
      failedIds.push(String(failed.headers["x-request-id"]));
      expect(failed.status, path).toBe(500);
      expect(failed.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(failed.headers["cache-control"]).toBe("no-store");
      expect(failed.body).toContain("Something went wrong");
      expect(failed.body).toContain("We hit a snag on our side. Please try again in a moment.");
      expect(failed.body).toContain('href="/"');
      expect(failed.body).toContain("Legacy &lt;Test&gt;");
      expect((await raw("/next")).body, `after ${path}`).toBe("express -");
    }
    const errors = loggedLines().filter((line) => line.level === "error");
    expect(errors.map((line) => line.msg)).toEqual([
      'The request "GET /gate-throws" failed',
      'The request "GET /gate-rejects" failed',
      'The request "GET /fast-throws" failed',
      'The request "GET /express-throws" failed',
    ]);
    // Each with its stack and the request's id, the one its answer carried.
    expect(errors.map((line) => line.err?.message)).toEqual(["gate bug", "database gone", "cache bug", "express bug"]);
    for (const line of errors) expect(line.err?.stack).toContain(line.err?.message);
    expect(errors.map((line) => line.requestId)).toEqual(failedIds);
  });

  it("answers the JSON error on /api, and a failed gate never hands the request on", async () => {
    expectLoggedErrors();
    const failed = await raw("/api/gate-rejects", {}, "POST");
    expect(failed.status).toBe(500);
    expect(failed.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(failed.body)).toEqual({ message: "Something went wrong on our side. Please try again.", errors: {} });
    expect(reachedExpress).toEqual([]);
    expect(loggedAt("error")).toEqual(['The request "POST /api/gate-rejects" failed']);
  });

  it("answers 503 with Retry-After when the gate met a lost database connection, page and /api alike", async () => {
    const page = await raw("/gate-db-lost");
    expect(page.status).toBe(503);
    expect(page.headers["retry-after"]).toBe("3");
    expect(page.body).toContain("Busy for a moment");
    expect(page.body).toContain("The store is busy for a moment. Please try again.");
    const api = await raw("/api/gate-db-lost", {}, "POST");
    expect(api.status).toBe(503);
    expect(api.headers["retry-after"]).toBe("3");
    expect(JSON.parse(api.body)).toEqual({ message: "The store is busy for a moment. Please try again.", errors: {} });
    expect(reachedExpress).toEqual([]);
    expect(loggedAt("warn")).toEqual([expect.stringMatching(/^The database could not be reached/)]);
  });

  it("takes every internal header name off before anything reads the request", async () => {
    const forged = Object.fromEntries(INTERNAL_HEADERS.map((name) => [name, "1"]));
    expect((await raw("/cart", forged)).body).toBe(`express ${INTERNAL_HEADERS.map(() => "-").join(",")}`);
    expect((await raw("/gate-later", forged)).body).toBe(`express ${INTERNAL_HEADERS.map(() => "-").join(",")}`);
  });

  it("refuses a Host no URL can be made of with 400, and takes the usual ones", async () => {
    for (const host of ["a b", "shop.example:99999", "exa%mple", "[::1", "x/y"]) {
      expect((await raw("/store", { Host: host })).status, host).toBe(400);
    }
    expect((await raw("/store", { "X-Forwarded-Host": "ok.example, bad host" })).status).toBe(400);
    for (const host of ["shop.example", "127.0.0.1:3000", "[::1]:3000", "my_store:8080", "SHOP.Example."]) {
      expect((await raw("/store", { Host: host })).status, host).toBe(200);
    }
  });

  /** A request line written by hand on a socket (http.request and msw build a URL from the target); the status and body. */
  function byHand(method: string, target: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
      const head = Object.entries({ Host: "127.0.0.1", ...headers, Connection: "close" }).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.end(`${method} ${target} HTTP/1.1\r\n${head.join("")}\r\n`);
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("end", () => resolve({ status: Number(text.split(" ")[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) }));
      socket.on("error", reject);
    });
  }

  it("takes a target in the absolute form as its path, its host standing for Host (RFC 9112)", async () => {
    const answer = await byHand("GET", "http://shop.example:8080/host?page=2", { Host: "other.example" });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("shop.example:8080");
    expect(reachedExpress).toEqual(["/host?page=2"]);
    expect((await byHand("GET", "HTTPS://shop.example/store/../host")).body).toBe("shop.example");
  });

  it("refuses a target that is no path with 400: the asterisk but for OPTIONS, or another scheme", async () => {
    for (const target of ["*", "ftp://shop.example/store", "http://"]) {
      const answer = await byHand("GET", target);
      expect(answer.status, target).toBe(400);
      expect(answer.body, target).toContain("Bad request");
      expect(answer.body, target).toContain("The request&#39;s target is not valid. Status code: 400.");
    }
    // node's parser refuses a target with neither slash nor scheme itself, before any listener.
    expect((await byHand("GET", "store")).status).toBe(400);
    expect((await byHand("OPTIONS", "*")).status).toBe(200);
    expect(reachedExpress).toEqual(["*"]);
  });
});
