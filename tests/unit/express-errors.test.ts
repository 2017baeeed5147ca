import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expressErrors } from "#server/http/failure-answer";
import { mockServer } from "../mocks/server";
import { expectLoggedErrors, loggedLines } from "../setup/log-capture";

// server.js's Express, in small: a catch-all route (whose `*` Express decodes) and its last handler.
let base = "";
let server: http.Server;

beforeAll(async () => {
  // Only a server on loopback is talked to, with addresses msw's own matching cannot decode.
  mockServer.close();
  const app = express();
  app.get("/boom", () => {
    throw new RangeError("a bug of ours");
  });
  app.all("*", (_req, res) => void res.type("text/plain").send("page"));
  app.use(expressErrors("Legacy <Test>"));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

function get(path: string) {
  return new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body }));
      })
      .on("error", reject);
  });
}

describe("Express's last handler", () => {
  it("answers a path that does not decode with the store's 400 page, and logs nothing", async () => {
    for (const path of ["/store/%FF", "/draws/%E2%82", "/checkout/pay/%.data"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.type).toBe("text/html; charset=utf-8");
      expect(answer.body).toContain("Bad request");
      expect(answer.body).toContain("The request&#39;s address is not valid. Status code: 400.");
      expect(answer.body).toContain("Legacy &lt;Test&gt; · Error 400");
    }
    expect((await get("/store/caf%C3%A9")).body).toBe("page");
    expect(loggedLines()).toEqual([]);
  });

  it("answers the JSON error under /api", async () => {
    const answer = await get("/api/%FF");
    expect(answer.status).toBe(400);
    expect(answer.type).toBe("application/json; charset=utf-8");
    expect(JSON.parse(answer.body)).toEqual({ message: "The request's address is not valid.", errors: {} });
  });

  it("answers a failure of ours 500 and logs it", async () => {
    expectLoggedErrors();
    const answer = await get("/boom");
    expect(answer.status).toBe(500);
    expect(answer.body).toContain("We hit a snag on our side.");
    const errors = loggedLines().filter((line) => line.level === "error");
    expect(errors.map((line) => [line.msg, line.err?.message])).toEqual([['The request "GET /boom" failed', "a bug of ours"]]);
  });
});
