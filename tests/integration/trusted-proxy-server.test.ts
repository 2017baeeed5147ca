// The built store behind one proxy that appends the address it saw to X-Forwarded-For (nginx's
// $proxy_add_x_forwarded_for), with TRUST_PROXY=1: whatever a client writes into the header, its
// allowance is the one of the address the proxy saw (decision 0037).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtStoreForFile } from "../setup/built-store-fixture";

let proxy: http.Server;
let proxyUrl: string;

/** A reverse proxy as docs/deploy.md once had it: appends, never replaces, X-Forwarded-For. */
function appendingProxy(target: URL): http.Server {
  return http.createServer((req, res) => {
    const seen = req.socket.remoteAddress!;
    const before = req.headers["x-forwarded-for"];
    const headers = { ...req.headers, "x-forwarded-for": before ? `${[before].flat().join(", ")}, ${seen}` : seen };
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
}

const built = builtStoreForFile("trusted-proxy", () => ({ WEB_CONCURRENCY: "1", TRUST_PROXY: "1" }));

beforeAll(async () => {
  proxy = appendingProxy(new URL(built.store.baseUrl));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));

const subscribe = (base: string, email: string, headers: Record<string, string>) =>
  fetch(`${base}/api/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ email }),
  });

describe("TRUST_PROXY=1 behind a proxy that appends the address it saw", () => {
  it("gives a client that rotates X-Forwarded-For one address's allowance: ten sign-ups, then 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const answer = await subscribe(proxyUrl, `rotator${i}@example.com`, { "X-Forwarded-For": `10.${i}.${i * 7}.${i + 1}` });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(15).fill(429)]);
  });

  it("counts the addresses the proxy saw within one IPv6 /64 as one", async () => {
    // What the proxy sends on for IPv6 clients: the client's own entry, then the address it saw.
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const answer = await subscribe(built.store.baseUrl, `v6-${i}@example.com`, {
        "X-Forwarded-For": `198.51.100.${i}, 2001:db8:77:1::${i.toString(16)}`,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429, 429]);
    const elsewhere = await subscribe(built.store.baseUrl, "v6-other@example.com", { "X-Forwarded-For": "2001:db8:77:2::1" });
    expect(elsewhere.status).toBe(201);
  });

  it("takes the scheme from the trusted hop, not from an entry a client wrote ahead of it", async () => {
    const addToBag = (proto: string) =>
      fetch(`${built.store.baseUrl}/api/cart`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-Proto": proto },
        body: JSON.stringify({ productId: 1, quantity: 1 }),
      });
    const overHttps = await addToBag("https");
    expect(overHttps.status).toBe(201);
    expect(overHttps.headers.get("Set-Cookie")).toMatch(/; Secure/i);
    const claimed = await addToBag("https, http");
    expect(claimed.status).toBe(201);
    expect(claimed.headers.get("Set-Cookie")).toMatch(/^cart=/);
    expect(claimed.headers.get("Set-Cookie")).not.toMatch(/; Secure/i);
  });
});
