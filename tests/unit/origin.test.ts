import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "../../server/http/origin";

describe("isCrossSiteWrite", () => {
  it("lets reads through from anywhere", () => {
    expect(isCrossSiteWrite("GET", "https://evil.example", "store.example")).toBe(false);
  });
  it("lets same-site writes and callers without Origin through", () => {
    expect(isCrossSiteWrite("POST", "https://store.example", "store.example")).toBe(false);
    expect(isCrossSiteWrite("POST", undefined, "store.example")).toBe(false);
  });
  it("refuses writes from another site, an opaque origin or a garbled one", () => {
    expect(isCrossSiteWrite("POST", "https://evil.example", "store.example")).toBe(true);
    expect(isCrossSiteWrite("DELETE", "null", "store.example")).toBe(true);
    expect(isCrossSiteWrite("PATCH", "not a url", "store.example")).toBe(true);
  });
});
