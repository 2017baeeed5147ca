import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawRequestListener } from "#server/http/raw-listener";
import { installMeter, meter, type RouteKind } from "#server/observability/meter";
import { mockServer } from "../mocks/server";

// server.js's listener with stand-ins for the gate, the fast path's page cache and memo door, and
// Express: the route kind each answer is counted under in store_http_requests_total.
const counted: { kind: RouteKind; method: string; status: number }[] = [];
let server: http.Server;
let base = "";

beforeAll(async () => {
  installMeter({ ...meter(), request: (kind, method, status) => void counted.push({ kind, method, status }) });
  server = http.createServer(
    rawRequestListener({
      brandName: "Legacy",
      gate: (req, res) => {
        if (req.url !== "/store/9") return false;
        res.writeHead(303, { Location: "/waiting-room" }).end();
        return true;
      },
      fastPath: (req, res, next, byApp) => {
        // As the memo door: /checkout from a kept render after its loaders ran; /cart has no copy
        // yet, so it goes on to Remix.
        if (req.url === "/checkout" || req.url === "/cart") {
          byApp();
          if (req.url === "/cart") return next();
          return void res.writeHead(200, { "Content-Type": "text/html" }).end("memo page");
        }
        // As the API's write door.
        if (req.url === "/api/cart") {
          byApp();
          return void res.writeHead(201, { "Content-Type": "application/json" }).end("{}");
        }
        if (req.url === "/store") return void res.writeHead(200, { "Content-Type": "text/html" }).end("cached page");
        next();
      },
      fallback: (_req, res) => void res.writeHead(200, { "Content-Type": "text/html" }).end("remix page"),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  installMeter(null);
  server.close();
});
beforeEach(() => {
  counted.length = 0;
  mockServer.use(mswHttp.all(`${base}/*`, () => passthrough()));
});

function send(path: string, method = "GET") {
  return new Promise<number>((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      })
      .on("error", reject)
      .end();
  });
}

/** What the meter was told, once the answers have closed (it counts on close, just after the client has it). */
async function countedAfter(requests: () => Promise<unknown>) {
  await requests();
  for (let wait = 0; wait < 40 && counted.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return counted.map(({ kind, method, status }) => `${kind} ${method} ${status}`);
}

describe("store_http_requests_total's route kind", () => {
  it("counts the page cache's copy as cached_page, the memo door's page as memo_page, Remix's and the gate's as page", async () => {
    expect(await countedAfter(() => send("/store"))).toEqual(["cached_page GET 200"]);
    counted.length = 0;
    expect(await countedAfter(() => send("/checkout"))).toEqual(["memo_page GET 200"]);
    counted.length = 0;
    // The memo door had no copy: Remix rendered it.
    expect(await countedAfter(() => send("/cart"))).toEqual(["page GET 200"]);
    counted.length = 0;
    expect(await countedAfter(() => send("/about"))).toEqual(["page GET 200"]);
    counted.length = 0;
    expect(await countedAfter(() => send("/store/9"))).toEqual(["page GET 303"]);
    counted.length = 0;
    expect(await countedAfter(() => send("/api/cart", "POST"))).toEqual(["api POST 201"]);
  });
});
