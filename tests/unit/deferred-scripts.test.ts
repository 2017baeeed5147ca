import { describe, expect, it } from "vitest";
import { preloadNonceStream, scriptsStart, withPreloadNonce } from "#app/preload-nonce.server";

// Remix's <Scripts nonce> output, as React renders it (decision 0031).
const NONCE = "AbCdEfGhIjKlMnOpQrStUvWx";
const remixScripts =
  '<link rel="modulepreload" href="/assets/entry.client-1.js"/><link rel="modulepreload" href="/assets/root-2.js"/>' +
  `<script nonce="${NONCE}">window.__remixContext = {};</script>` +
  `<script nonce="${NONCE}" type="module" async="">import * as route0 from "/assets/root-2.js";</script>`;
const expected =
  `<link rel="modulepreload-later" nonce="${NONCE}" href="/assets/entry.client-1.js"/><link rel="modulepreload-later" nonce="${NONCE}" href="/assets/root-2.js"/>` +
  `<script nonce="${NONCE}">window.__remixContext = {};</script>` +
  `<script nonce="${NONCE}" type="module-later" async="">import * as route0 from "/assets/root-2.js";</script>`;

async function streamed(html: string, cuts: number[]): Promise<string> {
  const stream = preloadNonceStream(NONCE);
  const out: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => stream.on("end", resolve));
  let from = 0;
  for (const cut of [...cuts, html.length]) {
    stream.write(Buffer.from(html.slice(from, cut)));
    from = cut;
  }
  stream.end();
  await done;
  return Buffer.concat(out).toString();
}

describe("the page's scripts are sent inert, with the answer's nonce on every preload", () => {
  it("rewrites Remix's module preloads and module script, and nothing else", () => {
    expect(withPreloadNonce(`<p>type="module"</p>${remixScripts}`, NONCE)).toBe(`<p>type="module"</p>${expected}`);
  });

  it("leaves a module script with another nonce alone (it is not this answer's)", () => {
    const other = '<script nonce="zzzzzzzzzzzzzzzzzzzzzzzz" type="module">x</script>';
    expect(withPreloadNonce(other, NONCE)).toBe(other);
  });

  it("gives the same page when the stream cuts a tag anywhere", async () => {
    for (let cut = 1; cut < remixScripts.length; cut += 7) {
      expect(await streamed(remixScripts, [cut])).toBe(expected);
    }
    expect(await streamed(remixScripts, [5, 30, 31, 200, 260])).toBe(expected);
  });
});

describe("when each page's scripts start", () => {
  it("after the load on the pages a visitor reads first, at the first paint on the form pages, at once elsewhere", () => {
    for (const path of ["/", "/countdown", "/store", "/store/12", "/store/12/", "/about", "/waiting-room"]) {
      expect(scriptsStart(path), path).toBe("load");
    }
    for (const path of ["/checkout", "/cart", "/support"]) expect(scriptsStart(path), path).toBe("paint");
    for (const path of ["/auth", "/admin", "/admin/products", "/store/12/extra", "/early-access/x", "/checkout/pay/pi_1"]) {
      expect(scriptsStart(path), path).toBe("now");
    }
  });

  it("sends a form page's module script to start at the first paint, and leaves the others' live", () => {
    const html = `<link rel="modulepreload" href="/a.js"/><script nonce="${NONCE}" type="module">import "/a.js"</script>`;
    expect(withPreloadNonce(html, NONCE, "paint")).toBe(
      `<link rel="modulepreload-later" nonce="${NONCE}" href="/a.js"/><script nonce="${NONCE}" type="module-at-paint">import "/a.js"</script>`,
    );
    expect(withPreloadNonce(html, NONCE, "now")).toBe(
      `<link rel="modulepreload" nonce="${NONCE}" href="/a.js"/><script nonce="${NONCE}" type="module">import "/a.js"</script>`,
    );
  });
});
