// The load generator's HTTP: node:http over a keep-alive agent with a bounded socket pool, no
// fetch (undici) and no decompression of pages, so the bench spends its CPU on sending, not on
// parsing what it does not read.
import http from "node:http";
import zlib from "node:zlib";

export function createClient(base, { sockets, timeoutMs = 30_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const { hostname, port } = new URL(base);

  /** One request; resolves with status, headers and the raw (possibly compressed) body. */
  function request(method, path, { headers = {}, body } = {}) {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          headers: {
            "Accept-Encoding": "gzip, br",
            ...(payload ? { "Content-Type": "application/json", "Content-Length": payload.length } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} took over ${timeoutMs} ms`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  return { request, agent, close: () => agent.destroy() };
}

/** A response body as text, decompressed when the server compressed it. */
export function textOf(response) {
  const encoding = response.headers["content-encoding"];
  const raw =
    encoding === "br" ? zlib.brotliDecompressSync(response.body) : encoding === "gzip" ? zlib.gunzipSync(response.body) : response.body;
  return raw.toString("utf8");
}

export const jsonOf = (response) => JSON.parse(textOf(response));

/** The `name=value` part of each Set-Cookie, to send back as a Cookie header. */
export const cookiesOf = (response) => (response.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");
