import crypto from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliWithNonce, prepareBrotli } from "#server/http/cache/brotli-splice";
import { bodyWithNonce, bodyWithNonceWhenReady } from "#server/http/cache/nonce-body";
import { freshNonce, gzipWithNonce, NONCE_LENGTH, NONCE_STANDIN, nonceCopy, withNonce } from "#server/http/cache/nonce-splice";

// Pages shaped like the store's: markup, then scripts and preloads carrying the nonce, JSON between.
function page(seed: number, { scripts = 5, bulk = 20_000 }: { scripts?: number; bulk?: number } = {}): string {
  const random = crypto.createHash("sha256").update(String(seed)).digest("hex");
  let html = `<!DOCTYPE html><html><head><script nonce="${NONCE_STANDIN}">x()</script></head><body>`;
  html += `<p>Legacy drop ${random} é ü 漢</p>`.repeat(Math.ceil(bulk / 40));
  for (let i = 0; i < scripts; i++)
    html += `<link rel="modulepreload" nonce="${NONCE_STANDIN}" href="/assets/r${i}-${random.slice(i, i + 8)}.js"/><script nonce="${NONCE_STANDIN}">window.__remixContext=${JSON.stringify({ i, random, nonce: "nonce" })}</script>`;
  return `${html}</body></html>`;
}

describe("a fresh nonce spliced into a kept page", () => {
  it("gives the same page as writing the nonce in and compressing it, for every answer", () => {
    for (const [seed, options] of [
      [1, { scripts: 5 }],
      [2, { scripts: 0 }],
      [3, { scripts: 5, bulk: 120_000 }], // past deflate's 32 kB window
      [4, { scripts: 40, bulk: 100 }],
    ] as const) {
      const html = page(seed, options);
      const copy = nonceCopy(Buffer.from(html));
      expect(copy.offsets).toHaveLength(1 + options.scripts * 2);
      const nonces = new Set<string>();
      for (let answer = 0; answer < 3; answer++) {
        const nonce = freshNonce();
        nonces.add(nonce);
        const expected = html.replaceAll(NONCE_STANDIN, nonce);
        // gunzip checks the CRC-32 and the length in the trailer too.
        expect(zlib.gunzipSync(gzipWithNonce(copy, nonce)).toString()).toBe(expected);
        expect(withNonce(copy, nonce).toString()).toBe(expected);
      }
      expect(nonces.size).toBe(3);
    }
  });

  it("keeps the page compressed: within a few bytes per nonce of compressing it whole", () => {
    const html = page(5);
    const whole = zlib.gzipSync(html.replaceAll(NONCE_STANDIN, freshNonce())).length;
    const spliced = gzipWithNonce(nonceCopy(Buffer.from(html)), freshNonce()).length;
    expect(spliced).toBeLessThan(whole + 11 * 120);
  });

  it("makes nonces of 24 base64 characters, never the stand-in", () => {
    const nonce = freshNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(nonce).toHaveLength(NONCE_LENGTH);
    expect(nonce).not.toBe(NONCE_STANDIN);
  });

  it("leaves a page without a stand-in as it is", () => {
    const copy = nonceCopy(Buffer.from("<p>no scripts</p>"));
    expect(withNonce(copy, freshNonce()).toString()).toBe("<p>no scripts</p>");
    expect(zlib.gunzipSync(gzipWithNonce(copy, freshNonce())).toString()).toBe("<p>no scripts</p>");
  });
});

describe("the brotli copy of a kept page (decision 0032)", () => {
  it("decodes to the page with this answer's nonce at every stand-in, for every answer", async () => {
    for (const [seed, options] of [
      [1, { scripts: 5 }],
      [3, { scripts: 5, bulk: 120_000 }],
      [4, { scripts: 40, bulk: 100 }],
      [6, { scripts: 0 }],
    ] as const) {
      const html = page(seed, options);
      const copy = nonceCopy(Buffer.from(html));
      expect(await prepareBrotli(copy)).not.toBeNull();
      for (let answer = 0; answer < 20; answer++) {
        const nonce = freshNonce();
        const body = brotliWithNonce(copy, nonce);
        expect(body).not.toBeNull();
        expect(zlib.brotliDecompressSync(body!).toString()).toBe(html.replaceAll(NONCE_STANDIN, nonce));
      }
    }
  });

  it("is smaller than the spliced gzip and near brotli of the whole page", async () => {
    const html = page(7, { bulk: 60_000 });
    const copy = nonceCopy(Buffer.from(html));
    await prepareBrotli(copy);
    const nonce = freshNonce();
    const spliced = brotliWithNonce(copy, nonce)!.length;
    const whole = zlib.brotliCompressSync(html.replaceAll(NONCE_STANDIN, nonce), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    }).length;
    expect(spliced).toBeLessThan(gzipWithNonce(copy, nonce).length);
    expect(spliced).toBeLessThan(whole * 1.15 + 100);
  });

  it("is sent as gzip until it is made, then as brotli; gzip or nothing where brotli is not taken", async () => {
    const html = page(8);
    const copy = nonceCopy(Buffer.from(html));
    const first = bodyWithNonce(copy, freshNonce(), "gzip, deflate, br");
    expect(first.encoding).toBe("gzip");
    await prepareBrotli(copy);
    const nonce = freshNonce();
    const later = bodyWithNonce(copy, nonce, "gzip, deflate, br");
    expect(later.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(later.body).toString()).toBe(html.replaceAll(NONCE_STANDIN, nonce));
    expect(bodyWithNonce(copy, nonce, "gzip").encoding).toBe("gzip");
    expect(bodyWithNonce(copy, nonce, "br;q=0, gzip").encoding).toBe("gzip");
    expect(bodyWithNonce(copy, nonce, undefined).encoding).toBeNull();
    expect(bodyWithNonce(copy, nonce, "identity").body.toString()).toBe(html.replaceAll(NONCE_STANDIN, nonce));
  });

  it("when ready: a browser waits for a new copy's brotli form, and no gzip form is made for it", async () => {
    const html = page(9);
    const copy = nonceCopy(Buffer.from(html));
    const nonce = freshNonce();
    const pending = bodyWithNonceWhenReady(copy, nonce, "gzip, deflate, br");
    expect(pending).toBeInstanceOf(Promise);
    const answer = await pending;
    expect(answer.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(html.replaceAll(NONCE_STANDIN, nonce));
    expect(copy.gzip).toBeUndefined();
    // Made: later answers are at once; gzip-only clients still get gzip.
    expect(bodyWithNonceWhenReady(copy, nonce, "br")).not.toBeInstanceOf(Promise);
    expect((bodyWithNonceWhenReady(copy, nonce, "gzip") as { encoding: string }).encoding).toBe("gzip");
  });

  it("falls back to gzip for a page whose text holds the marker bytes in the way of the splice", async () => {
    // A stand-in followed by the marker's own bytes: the encoder can then match the marker against
    // text that must not change, which the two-nonce check catches.
    const marker = String.fromCharCode(1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27);
    const html = `<p>${"x".repeat(500)}</p><script nonce="${NONCE_STANDIN}">a()</script><pre>${marker}${marker}</pre>`;
    const copy = nonceCopy(Buffer.from(html));
    expect(await prepareBrotli(copy)).toBeNull();
    const nonce = freshNonce();
    const answer = bodyWithNonce(copy, nonce, "br, gzip");
    expect(answer.encoding).toBe("gzip");
    expect(zlib.gunzipSync(answer.body).toString()).toBe(html.replaceAll(NONCE_STANDIN, nonce));
  });
});
