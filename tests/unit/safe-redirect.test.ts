import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "#server/http/requests/safe-redirect";
import { HOSTILE_REDIRECTS } from "../fixtures/hostile-redirects";

describe("safeRedirectPath", () => {
  it.each(HOSTILE_REDIRECTS)("refuses %s", (_name, to) => {
    expect(safeRedirectPath(to, "/admin")).toBe("/admin");
  });

  it("refuses a missing value and a file field", () => {
    expect(safeRedirectPath(null, "/admin")).toBe("/admin");
    expect(safeRedirectPath(undefined, "/admin")).toBe("/admin");
    expect(safeRedirectPath(new File(["/admin"], "redirect.txt"), "/admin")).toBe("/admin");
  });

  it.each([
    ["/admin/orders", "/admin/orders"],
    ["/admin?x=1#y", "/admin?x=1#y"],
    ["/admin/orders?status=paid&page=2", "/admin/orders?status=paid&page=2"],
    ["/", "/"],
    // Still encoded, so the browser asks this site for an odd path: a 404 here, not a trip elsewhere.
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%09/evil.example", "/%09/evil.example"],
    // Written as the browser will read it, and always fit for a Location header.
    ["/admin/../store", "/store"],
    ["/store/€", "/store/%E2%82%AC"],
    ["/search?q=a b", "/search?q=a%20b"],
  ])("keeps %s on this site as %s", (to, expected) => {
    expect(safeRedirectPath(to, "/admin")).toBe(expected);
  });

  it("falls back to / when no fallback is given", () => {
    expect(safeRedirectPath("//evil.example")).toBe("/");
  });
});
