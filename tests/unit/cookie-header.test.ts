import { createCookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { cookieValue, rawCookieValue } from "#server/http/requests/cookie-header";
import { readCookie } from "#server/http/requests/cookies";

// What a bot puts in a cookie (issue 21): every one of these counts as absent, none throws.
const MALFORMED = ["%", "%E2%82", "%E2%82%AC%", "abc%zz", "%00", "a%0Ab", "x".repeat(8192), "\u0001"];
// Odd but well formed: read as sent.
const ODD = ['"', '"quoted"', "=", "a=b=c", "\u00e9t\u00e9", "%C3%A9"];

describe("the one Cookie header reader", () => {
  it("reads the first cookie of a name, decoded, and tells absent from present", () => {
    expect(cookieValue("a=1; waiting_room_pass=p%2Eq; waiting_room_pass=second", "waiting_room_pass")).toBe("p.q");
    expect(rawCookieValue("a=1; waiting_room_pass=p%2Eq", "waiting_room_pass")).toBe("p%2Eq");
    expect(cookieValue("xcart=1;  cart = v ", "cart")).toBe("v");
    expect(cookieValue("carts=1", "cart")).toBeNull();
    expect(cookieValue("", "cart")).toBeNull();
    expect(cookieValue(undefined, "cart")).toBeNull();
    expect(cookieValue('cart="quoted"', "cart")).toBe("quoted");
  });

  it("never throws, and counts a malformed value as absent", () => {
    for (const value of MALFORMED) {
      expect(cookieValue(`waiting_room_pass=${value}`, "waiting_room_pass"), value.slice(0, 20)).toBeNull();
      expect(rawCookieValue(`a=1; early_access=${value}; b=2`, "early_access"), value.slice(0, 20)).toBeNull();
    }
    expect(cookieValue(`cart=${"x".repeat(4096)}`, "cart")).toHaveLength(4096);
    for (const value of ODD) expect(() => cookieValue(`flash=${value}`, "flash")).not.toThrow();
    expect(cookieValue("flash==", "flash")).toBe("=");
    expect(cookieValue("flash=a=b=c", "flash")).toBe("a=b=c");
  });

  it("lets Remix's signed cookies read nothing from a malformed or forged value", async () => {
    const cart = createCookie("cart", { secrets: ["s3cret"] });
    const good = (await cart.serialize("abcdefghijklmnop")).split(";")[0]!;
    expect(await readCookie(cart, `a=1; ${good}`)).toBe("abcdefghijklmnop");
    for (const value of [...MALFORMED, ...ODD, "abc.def", "e30%3D.%%%"]) {
      expect(await readCookie(cart, `cart=${value}`), value.slice(0, 20)).toBeNull();
    }
    const session = createCookie("session");
    for (const value of [...MALFORMED, ...ODD]) await expect(readCookie(session, `session=${value}`)).resolves.not.toBe("x");
  });
});
