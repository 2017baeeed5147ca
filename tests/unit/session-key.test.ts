// The events' session key (server/services/reporting/events.ts) is kept per session once made
// (issue 24): it must stay the HMAC of the session with the store's own secret, whatever was
// asked before and under whichever secret.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AppContext } from "#server/context";
import { sessionKeyOf } from "#server/services/reporting/events";

const storeWith = (sessionSecret: string) => ({ config: { sessionSecret } }) as unknown as AppContext;
const hmac = (secret: string, session: string) => crypto.createHmac("sha256", secret).update(session).digest("base64url").slice(0, 22);

describe("a session's events key", () => {
  it("is the HMAC of the session with the secret, asked once or again", () => {
    const store = storeWith("secret-one-0123456789abcdef0123456789");
    const first = sessionKeyOf(store, "bag-0000000000000001");
    expect(first).toBe(hmac("secret-one-0123456789abcdef0123456789", "bag-0000000000000001"));
    expect(sessionKeyOf(store, "bag-0000000000000001")).toBe(first);
    expect(sessionKeyOf(store, "bag-0000000000000002")).toBe(hmac("secret-one-0123456789abcdef0123456789", "bag-0000000000000002"));
  });

  it("follows the secret: another store's key is never the one kept for the first", () => {
    const one = sessionKeyOf(storeWith("secret-one-0123456789abcdef0123456789"), "bag-shared-0000001");
    const two = sessionKeyOf(storeWith("secret-two-0123456789abcdef0123456789"), "bag-shared-0000001");
    expect(two).toBe(hmac("secret-two-0123456789abcdef0123456789", "bag-shared-0000001"));
    expect(two).not.toBe(one);
    expect(sessionKeyOf(storeWith("secret-one-0123456789abcdef0123456789"), "bag-shared-0000001")).toBe(one);
  });

  it("stays right past the number of sessions it keeps", () => {
    const store = storeWith("secret-many-0123456789abcdef012345678");
    for (let i = 0; i < 25_000; i++) sessionKeyOf(store, `bag-many-${String(i).padStart(8, "0")}`);
    expect(sessionKeyOf(store, "bag-many-00000003")).toBe(hmac("secret-many-0123456789abcdef012345678", "bag-many-00000003"));
    expect(sessionKeyOf(store, "bag-many-00024999")).toBe(hmac("secret-many-0123456789abcdef012345678", "bag-many-00024999"));
  });
});
