import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, proxyHopsFrom } from "#server/config";
import { forwardedProto, fromTrustedHop } from "#server/http/requests/forwarded";
import { networkOf } from "#server/services/security/client-network";

describe("TRUST_PROXY (a hop count)", () => {
  it("reads unset and false as no proxy, true as the one nginx in front, N as N proxies", () => {
    const cases: [string | undefined, number][] = [
      [undefined, 0],
      ["", 0],
      ["false", 0],
      ["0", 0],
      ["off", 0],
      ["true", 1],
      ["TRUE", 1],
      ["1", 1],
      [" 2 ", 2],
      ["10", 10],
    ];
    for (const [raw, hops] of cases) expect(proxyHopsFrom(raw), String(raw)).toBe(hops);
  });

  it("refuses anything else with a message naming the variable", () => {
    for (const raw of ["maybe", "-1", "1.5", "11", "0x1", "1,2", "loopback"]) {
      const refused = (() => {
        try {
          return proxyHopsFrom(raw);
        } catch (error) {
          return error;
        }
      })();
      expect(refused, raw).toBeInstanceOf(ConfigError);
      expect((refused as Error).message, raw).toBe(
        `TRUST_PROXY must be true (one reverse proxy in front of the store, such as nginx), the number of proxies in front of it (1 to 10), or false; not "${raw}".`,
      );
    }
    expect(() =>
      loadConfig({ NODE_ENV: "test", SESSION_SECRET: "t", DATA_DIR: "/nonexistent", PAYMENTS: "test", TRUST_PROXY: "yes please" }),
    ).toThrow(
      'TRUST_PROXY must be true (one reverse proxy in front of the store, such as nginx), the number of proxies in front of it (1 to 10), or false; not "yes please".',
    );
  });
});

describe("the hop rule for X-Forwarded-*", () => {
  it("takes the entry the outermost trusted proxy wrote, never one a client wrote ahead of it", () => {
    // nginx's $proxy_add_x_forwarded_for: whatever the client sent, then the address nginx saw.
    expect(fromTrustedHop("6.6.6.6, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(fromTrustedHop("6.6.6.6,7.7.7.7 , 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(fromTrustedHop(["6.6.6.6", "203.0.113.9"], 1)).toBe("203.0.113.9");
    // A CDN, then nginx: the CDN's entry is the second from the right.
    expect(fromTrustedHop("6.6.6.6, 198.51.100.4, 10.0.0.2", 2)).toBe("198.51.100.4");
    // Fewer entries than hops: the left-most, as Express's `trust proxy` N reads it.
    expect(fromTrustedHop("198.51.100.4", 2)).toBe("198.51.100.4");
    expect(fromTrustedHop("203.0.113.9", 0)).toBeUndefined();
    expect(fromTrustedHop(undefined, 1)).toBeUndefined();
    expect(fromTrustedHop(" , ", 1)).toBeUndefined();
  });

  it("reads the scheme the same way, and only http or https", () => {
    expect(forwardedProto("https", 1)).toBe("https");
    expect(forwardedProto("https, http", 1)).toBe("http");
    expect(forwardedProto("https, http", 2)).toBe("https");
    expect(forwardedProto("HTTPS", 1)).toBe("https");
    expect(forwardedProto("ftp", 1)).toBeUndefined();
    expect(forwardedProto("https", 0)).toBeUndefined();
  });
});

describe("networkOf (the key of every per-address allowance)", () => {
  it("is an IPv4 address itself, ::ffff:a.b.c.d as a.b.c.d, and an IPv6 address its /64", () => {
    const cases: [string, string][] = [
      ["203.0.113.9", "203.0.113.9"],
      ["::ffff:203.0.113.9", "203.0.113.9"],
      ["::FFFF:cb00:7109", "203.0.113.9"],
      ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
      ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
      ["2001:0DB8:0001:0002:0:0:0:9", "2001:db8:1:2::/64"],
      ["2001:db8:1:3::1", "2001:db8:1:3::/64"],
      ["fe80::1%eth0", "fe80:0:0:0::/64"],
      ["::1", "0:0:0:0::/64"],
      ["local", "local"],
    ];
    for (const [address, network] of cases) expect(networkOf(address), address).toBe(network);
  });

  it("is unchanged by a second fold, and bounded for anything that is not an address", () => {
    expect(networkOf(networkOf("2001:db8:1:2::1"))).toBe("2001:db8:1:2::/64");
    expect(networkOf("x".repeat(5000))).toHaveLength(100);
  });
});
