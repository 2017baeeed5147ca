import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "#server/http/requests/origin";
import type { SiteAddressing } from "#server/http/requests/site-origin";

const plain: SiteAddressing = { publicUrl: null, trustProxy: 0 };
const proxied: SiteAddressing = { publicUrl: null, trustProxy: 1 };
const published: SiteAddressing = { publicUrl: "https://shop.example", trustProxy: 0 };

interface Case {
  method?: string;
  scheme?: "http" | "https";
  site?: SiteAddressing;
  headers: Record<string, string>;
  refused: boolean;
}

const check = ({ method = "POST", scheme = "http", site = plain, headers }: Case) =>
  isCrossSiteWrite({ method, scheme, header: (name) => headers[name] }, site);

const host = "store.example:3000";
const cases: Array<[string, Case]> = [
  // Reads are never refused: links and images from anywhere must work.
  ...["GET", "HEAD", "OPTIONS", "get"].map((method): [string, Case] => [
    `${method} from another site`,
    { method, headers: { host, origin: "https://evil.example", "sec-fetch-site": "cross-site" }, refused: false },
  ]),
  ["POST from the same origin", { headers: { host, origin: `http://${host}`, "sec-fetch-site": "same-origin" }, refused: false }],
  ["DELETE from another site", { method: "DELETE", headers: { host, origin: "https://evil.example" }, refused: true }],
  ["PATCH from another site", { method: "PATCH", headers: { host, origin: "https://evil.example" }, refused: true }],
  ["POST without Origin (curl, webhooks)", { headers: { host }, refused: false }],
  ["POST without Origin that the browser calls cross-site", { headers: { host, "sec-fetch-site": "cross-site" }, refused: true }],
  [
    "POST the browser calls cross-site, whatever Origin says",
    { headers: { host, origin: `http://${host}`, "sec-fetch-site": "cross-site" }, refused: true },
  ],
  [
    "POST the browser calls same-site, from our origin",
    { headers: { host, origin: `http://${host}`, "sec-fetch-site": "same-site" }, refused: false },
  ],
  ["POST typed in the address bar (Sec-Fetch-Site none)", { headers: { host, "sec-fetch-site": "none" }, refused: false }],
  ["POST from another site", { headers: { host, origin: "https://evil.example" }, refused: true }],
  ["POST from an opaque origin", { headers: { host, origin: "null" }, refused: true }],
  ["POST from a garbled origin", { headers: { host, origin: "not a url" }, refused: true }],
  ["POST with Origin but no Host", { headers: { origin: `http://${host}` }, refused: true }],
  ["POST with a Host that is not a host", { headers: { host: "store.example/x", origin: "http://store.example" }, refused: true }],
  // Scheme and port are part of the origin.
  ["https Origin on the same host and port of an http site", { headers: { host, origin: `https://${host}` }, refused: true }],
  ["http Origin on an https site", { scheme: "https", headers: { host, origin: `http://${host}` }, refused: true }],
  ["https Origin on an https site", { scheme: "https", headers: { host, origin: `https://${host}` }, refused: false }],
  ["another port on the same host", { headers: { host, origin: "http://store.example:3001" }, refused: true }],
  ["the default port written out or left out", { headers: { host: "store.example:80", origin: "http://store.example" }, refused: false }],
  ["Origin in capitals", { headers: { host, origin: "HTTP://STORE.EXAMPLE:3000" }, refused: false }],
  // X-Forwarded-* speak for the browser only under TRUST_PROXY.
  [
    "https behind a trusted proxy",
    { site: proxied, headers: { host, origin: `https://${host}`, "x-forwarded-proto": "https" }, refused: false },
  ],
  ["https claimed without TRUST_PROXY", { headers: { host, origin: `https://${host}`, "x-forwarded-proto": "https" }, refused: true }],
  [
    "http Origin behind a proxy that says https",
    { site: proxied, headers: { host, origin: `http://${host}`, "x-forwarded-proto": "https" }, refused: true },
  ],
  // TRUST_PROXY=N reads the entry the N-th proxy from the store wrote (decision 0037): the first of
  // several only when every proxy that wrote one is trusted; with one trusted, the last.
  [
    "the first of several forwarded schemes when both proxies are trusted",
    {
      site: { ...proxied, trustProxy: 2 },
      headers: { host, origin: `https://${host}`, "x-forwarded-proto": "https, http" },
      refused: false,
    },
  ],
  [
    "a forwarded scheme written ahead of the one trusted proxy's",
    { site: proxied, headers: { host, origin: `https://${host}`, "x-forwarded-proto": "https, http" }, refused: true },
  ],
  [
    "a forwarded host written ahead of the one trusted proxy's",
    {
      site: proxied,
      headers: {
        host: "127.0.0.1:3000",
        origin: "https://evil.example",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "evil.example, shop.example",
      },
      refused: true,
    },
  ],
  [
    "a forwarded scheme that is not http(s) is ignored",
    { site: proxied, headers: { host, origin: `http://${host}`, "x-forwarded-proto": "ftp" }, refused: false },
  ],
  [
    "the forwarded host behind a trusted proxy",
    {
      site: proxied,
      headers: { host: "127.0.0.1:3000", origin: "https://shop.example", "x-forwarded-proto": "https", "x-forwarded-host": "shop.example" },
      refused: false,
    },
  ],
  [
    "a forwarded host without TRUST_PROXY",
    { headers: { host: "127.0.0.1:3000", origin: "http://shop.example", "x-forwarded-host": "shop.example" }, refused: true },
  ],
  // PUBLIC_URL is the site's origin, whatever the request came to.
  [
    "PUBLIC_URL's origin behind a host-rewriting proxy",
    { site: published, headers: { host: "127.0.0.1:3000", origin: "https://shop.example" }, refused: false },
  ],
  [
    "the proxy's inner address when PUBLIC_URL is set",
    { site: published, headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }, refused: true },
  ],
  [
    "http to a PUBLIC_URL that is https",
    { site: published, headers: { host: "shop.example", origin: "http://shop.example" }, refused: true },
  ],
  [
    "PUBLIC_URL wins over forwarded headers",
    {
      site: { ...published, trustProxy: 1 },
      headers: { host, origin: "https://evil.example", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
      refused: true,
    },
  ],
];

describe("isCrossSiteWrite", () => {
  it.each(cases)("%s", (_name, c) => {
    expect(check(c)).toBe(c.refused);
  });
});
