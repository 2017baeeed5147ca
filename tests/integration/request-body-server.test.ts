// Issue 21, item 6, on the built store (`npm start`, one worker): a body too large is refused at
// once, by its Content-Length before a byte of it is sent, or as a chunked body passes 64 kB,
// while the client is still sending; a page's form post gets a readable 413 page; Stripe's
// webhook stops at 1 MB before its signature is looked at; an image upload (over 64 kB) still works.
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { CookieJar } from "../setup/http";

const built = builtStoreForFile("body-server", () => ({
  WEB_CONCURRENCY: "1",
  STRIPE_SECRET_KEY: "sk_test_body",
  STRIPE_PUBLISHABLE_KEY: "pk_test_body",
  STRIPE_WEBHOOK_SECRET: "whsec_body",
}));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the body the client had written when the answer came. */
  sent: number;
  ms: number;
}

/**
 * A POST whose body is written 16 kB at a time, up to `total` bytes, waiting for the socket to
 * drain between writes; it stops writing as soon as the answer has come. `declare` sends the
 * Content-Length, else the body is chunked.
 */
function post(url: string, options: { total: number; declare: boolean; type: string; headers?: Record<string, string> }): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": options.type, Origin: built.store.baseUrl, ...options.headers };
    if (options.declare) headers["Content-Length"] = String(options.total);
    // A keep-alive connection, as browsers and proxies use: a client that asks to close it gets it
    // closed once answered, with the rest of its body unread, and may see a reset before the answer.
    const agent = new http.Agent({ keepAlive: true });
    const request = http.request(`${built.store.baseUrl}${url}`, { method: "POST", headers, agent });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(16 * 1024, "a");
    request.on("response", (response) => {
      answered = true;
      const at = sent;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (part) => (body += part));
      response.on("end", () => {
        resolve({ status: response.statusCode!, headers: response.headers, body, sent: at, ms: Date.now() - started });
        // The rest of a refused body is never sent: the store would only discard it.
        request.destroy();
        agent.destroy();
      });
      response.on("error", reject);
    });
    // The store closing the connection while more was being written is expected once it answered.
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const write = () => {
      while (!answered && sent < options.total) {
        const part = chunk.subarray(0, Math.min(chunk.length, options.total - sent));
        sent += part.length;
        if (!request.write(part)) return void request.once("drain", write);
      }
      if (!answered) request.end();
    };
    request.flushHeaders();
    write();
  });
}

const MB = 1024 * 1024;
const MP4_START = `\0\0\0\x18ftypmp42\0\0\0\0mp42isom${"\0".repeat(1000)}`;
const TOO_LARGE = { message: "The request is too large.", errors: {} };

describe("request bodies on the built store", () => {
  it("refuses a 400 MB POST to /api/subscribe by its Content-Length, before it is sent", async () => {
    const answer = await post("/api/subscribe", { total: 400 * MB, declare: true, type: "application/json" });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
    expect(answer.sent).toBeLessThan(50 * MB);
    expect(answer.ms).toBeLessThan(5_000);
  });

  it("refuses a chunked POST to /api/subscribe once it passes 64 kB, while it is still being sent", async () => {
    // Up to 400 MB: the loopback's buffers take a few MB before the store has read any of it.
    const answer = await post("/api/subscribe", { total: 400 * MB, declare: false, type: "application/json" });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
    expect(answer.sent).toBeLessThan(50 * MB);
    expect(answer.ms).toBeLessThan(5_000);
  });

  it("answers a page's form post over 64 kB with a readable 413 page, declared or chunked", async () => {
    for (const declare of [true, false]) {
      const answer = await post("/support", { total: 400 * MB, declare, type: "application/x-www-form-urlencoded" });
      expect(answer.status, `declared: ${declare}`).toBe(413);
      expect(answer.body).toContain("The request is too large.");
      expect(answer.sent).toBeLessThan(50 * MB);
    }
    // A form of ordinary size is still the page's own business (its field errors: 400).
    const small = await post("/support", { total: 2048, declare: true, type: "application/x-www-form-urlencoded" });
    expect(small.status).toBe(400);
  });

  it("refuses Stripe's webhook past 1 MB before its signature is checked", async () => {
    for (const declare of [true, false]) {
      const answer = await post("/api/webhooks/stripe", {
        total: 400 * MB,
        declare,
        type: "application/json",
        headers: { "Stripe-Signature": "t=1,v1=00" },
      });
      expect(answer.status, `declared: ${declare}`).toBe(413);
      expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
      expect(answer.sent).toBeLessThan(50 * MB);
    }
  });

  it("still takes a product image far over 64 kB", async () => {
    const jar = new CookieJar();
    const login = await fetch(`${built.store.baseUrl}/api/login`, {
      method: "POST",
      headers: { Origin: built.store.baseUrl, "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "change-me-now" }),
    });
    expect(login.status).toBe(200);
    jar.store(login);
    const noise = crypto.randomBytes(300 * 300 * 3);
    const image = await sharp(noise, { raw: { width: 300, height: 300, channels: 3 } })
      .png()
      .toBuffer();
    expect(image.length).toBeGreaterThan(200 * 1024);
    const form = new FormData();
    form.set("image", new Blob([new Uint8Array(image)], { type: "image/png" }), "noise.png");
    const upload = await fetch(`${built.store.baseUrl}/api/admin/products/1/images`, {
      method: "POST",
      headers: { Origin: built.store.baseUrl, Cookie: jar.header() },
      body: form,
    });
    expect(upload.status).toBe(201);
    // And the worker that refused all of the above is the one answering.
    expect((await fetch(`${built.store.baseUrl}/healthz`)).status).toBe(200);
  });

  /**
   * A POST whose head and first bytes are written by hand, and then the socket is cut. Resolves
   * once the store has closed its side (its answer, if it wrote one, read).
   */
  function hangUpMidBody(target: string, head: Record<string, string>, first: string): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(Number(new URL(built.store.baseUrl).port), "127.0.0.1");
      const lines = Object.entries({ Host: new URL(built.store.baseUrl).host, Origin: built.store.baseUrl, ...head }).map(
        ([name, value]) => `${name}: ${value}\r\n`,
      );
      socket.write(`POST ${target} HTTP/1.1\r\n${lines.join("")}\r\n${first}`);
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("error", () => undefined);
      socket.on("close", () => resolve(text));
      setTimeout(() => socket.end(), 200);
    });
  }

  it("takes a body that stops before its end as the sender's doing: no 503, no word of the database", async () => {
    const admin = await fetch(`${built.store.baseUrl}/api/login`, {
      method: "POST",
      headers: { Origin: built.store.baseUrl, "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "change-me-now" }),
    });
    const cookie = (admin.headers.getSetCookie()[0] ?? "").split(";")[0]!;
    const logBefore = built.store.log().length;
    const chunked = { "Content-Type": "application/json", "Transfer-Encoding": "chunked" };
    const answers = [
      // A shopper's phone losing signal half-way through a chunked JSON body, at a REST door and at tRPC.
      await hangUpMidBody("/api/subscribe", chunked, '5\r\n{"ema\r\n'),
      await hangUpMidBody("/api/trpc/admin.settings.setText", { ...chunked, Cookie: cookie }, '5\r\n{"key\r\n'),
      // A page's form, and a chunk size that is no number.
      await hangUpMidBody(
        "/support",
        { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
        "4\r\nname\r\n",
      ),
      await hangUpMidBody("/api/subscribe", chunked, 'zz\r\n{"email":"a@b.co"}\r\n0\r\n\r\n'),
      // An admin closing the tab during a background video's upload (an MP4's first bytes: uploads are sniffed).
      await hangUpMidBody(
        "/api/admin/upload-video",
        { "Content-Type": "multipart/form-data; boundary=XYZ", "Content-Length": "5000000", Cookie: cookie },
        `--XYZ\r\nContent-Disposition: form-data; name="video"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n${MP4_START}`,
      ),
    ];
    for (const answer of answers) expect(answer).not.toMatch(/^HTTP\/1\.1 5/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = built.store.log().slice(logBefore);
    expect(written).not.toContain("database could not be reached");
    expect(written).not.toMatch(/"level":"(warn|error)"/);
    expect((await fetch(`${built.store.baseUrl}/healthz`)).status).toBe(200);
  });
});
