import { describe, expect, it } from "vitest";
import { compressionFor, notModified, preferredEncoding } from "#server/http/cache/negotiation";

// One reading of Accept-Encoding and If-None-Match for the build's assets, uploads, the page cache,
// the API's answer cache and the render memo (issue 22).

describe("choosing the encoding", () => {
  const all = ["br", "gzip", "identity"] as const;
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.8, gzip;q=0.9", "gzip"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["identity;q=0, gzip;q=0.1", "gzip"],
    ["x-gzip", "gzip"],
    ["BR;Q=1", "br"],
    ["deflate", "identity"],
    ["identity, gzip;q=0.5", "identity"],
    ["br;q=0, gzip;q=0", "identity"],
    ["*;q=0", "identity"],
  ])("Accept-Encoding %j → %s", (header, expected) => {
    expect(preferredEncoding(header, all)).toBe(expected);
  });

  it("picks among the variants at hand", () => {
    expect(preferredEncoding("br, gzip", ["gzip", "identity"])).toBe("gzip");
    expect(preferredEncoding("br", ["identity"])).toBe("identity");
    expect(preferredEncoding("br", ["gzip", "identity"])).toBe("identity");
    expect(preferredEncoding("br, gzip;q=0.5", ["gzip", "identity"])).toBe("gzip");
  });

  // The pages read the header with a regular expression that took any q=0.x for a refusal, missed
  // "BR", "Gzip" and "*", and a refusal written "br; q=0": they now read it as the assets do.
  it.each([
    ["br;q=0.8, gzip;q=0.9", "gzip"],
    ["gzip;q=0.5", "gzip"],
    ["br;q=0.001", "br"],
    ["*", "br"],
    ["BR;Q=1", "br"],
    ["Gzip", "gzip"],
    ["br; q=0, gzip", "gzip"],
    ["br;q=abc", null],
    ["identity", null],
    [undefined, null],
  ])("a page for Accept-Encoding %j is sent %s", (header, expected) => {
    expect(compressionFor(header)).toBe(expected);
  });

  it("judges a stranger's long header without remembering it, the same way", () => {
    const long = `${"x-unknown;q=0.1, ".repeat(20)}gzip;q=0.9, br;q=0.8`;
    expect(compressionFor(long)).toBe("gzip");
  });
});

describe("a conditional GET", () => {
  const etag = '"Ab12-br"';
  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [`"other", ${etag}`, true],
    [` ${etag} `, true],
    ["*", true],
    ['"Ab12"', false],
    ['"Ab12-gz"', false],
    ["", false],
    [null, false],
    [undefined, false],
  ])("If-None-Match %j is answered 304: %s", (ifNoneMatch, expected) => {
    expect(notModified(ifNoneMatch, etag)).toBe(expected);
  });
});
