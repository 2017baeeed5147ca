import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#server/config";

const configWith = (env: Record<string, string>) =>
  loadConfig({ NODE_ENV: "test", SESSION_SECRET: "test", DATA_DIR: "/nonexistent", PAYMENTS: "test", ...env });

function refusalOf(env: Record<string, string>): string {
  try {
    configWith(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe("the configuration's schema", () => {
  it("keeps the defaults the services had when a limit is unset or blank", () => {
    expect(configWith({}).rateLimits).toEqual({ loginsPerIp: 30, registrationsPerIp: 10, subscribesPerIp: 10, checkoutsPerIp: 60 });
    expect(configWith({ CHECKOUTS_PER_IP: " ", REGISTRATIONS_PER_IP: "" }).rateLimits).toMatchObject({
      registrationsPerIp: 10,
      checkoutsPerIp: 60,
    });
    expect(configWith({ REGISTRATIONS_PER_IP: "3", CHECKOUTS_PER_IP: "100000" }).rateLimits).toMatchObject({
      registrationsPerIp: 3,
      checkoutsPerIp: 100000,
    });
  });

  it("names the variable that is not a number", () => {
    expect(refusalOf({ REGISTRATIONS_PER_IP: "ten" })).toBe('REGISTRATIONS_PER_IP must be a whole number (1 or more), not "ten".');
    expect(refusalOf({ LOGIN_ATTEMPTS_PER_IP: "2.5" })).toMatch(/^LOGIN_ATTEMPTS_PER_IP must be a whole number/);
    expect(refusalOf({ PORT: "http" })).toMatch(/^PORT must be a port number/);
    expect(refusalOf({ CHECKOUT_HOLD_MINUTES: "ten" })).toMatch(/^CHECKOUT_HOLD_MINUTES must be a number of minutes/);
  });

  it("lists every refusal, one a line", () => {
    expect(refusalOf({ SUBSCRIBES_PER_IP: "x", CHECKOUTS_PER_IP: "0" }).split("\n")).toEqual([
      'SUBSCRIBES_PER_IP must be a whole number (1 or more), not "x".',
      'CHECKOUTS_PER_IP must be a whole number (1 or more), not "0".',
    ]);
  });

  it("takes the ship-from address, customs origin and Postmark webhook from their variables", () => {
    const unset = configWith({});
    expect(unset.shippo).toMatchObject({ originCountry: null, from: { city: "Brooklyn", state: "NY" } });
    expect(unset.shippo.fromMissing).toEqual(["SHIP_FROM_STREET", "SHIP_FROM_CITY", "SHIP_FROM_STATE", "SHIP_FROM_ZIP"]);
    expect(unset.postmark.webhook).toBeNull();

    const set = configWith({
      SHIP_FROM_STREET: "5 Dock Rd",
      SHIP_FROM_CITY: "Newark",
      SHIP_FROM_STATE: "NJ",
      SHIP_FROM_ZIP: "07114",
      CUSTOMS_ORIGIN_COUNTRY: "PT",
      POSTMARK_WEBHOOK_USER: "pm",
      POSTMARK_WEBHOOK_PASSWORD: "secret",
    });
    expect(set.shippo).toMatchObject({ fromMissing: [], originCountry: "PT", from: { street1: "5 Dock Rd", city: "Newark" } });
    expect(set.postmark.webhook).toEqual({ user: "pm", password: "secret" });
    expect(configWith({ POSTMARK_WEBHOOK_USER: "pm" }).postmark.webhook).toBeNull();
  });

  it("keeps the old meaning of 0 for the port and the hold: the default", () => {
    expect(configWith({ PORT: "0", CHECKOUT_HOLD_MINUTES: "0" })).toMatchObject({ port: 3000, holdMinutes: 10 });
    expect(configWith({ PORT: "8080", CHECKOUT_HOLD_MINUTES: "0.5" })).toMatchObject({ port: 8080, holdMinutes: 0.5 });
  });
});

describe("SESSION_SECRET", () => {
  const SECRET = "a-secret-from-a-secrets-file-0123";

  it("is trimmed as each previous secret is, and accepted as it came, never to sign with", () => {
    const filed = configWith({ SESSION_SECRET: ` ${SECRET}\n` });
    expect(filed.sessionSecret).toBe(SECRET);
    expect(filed.previousSessionSecrets).toEqual([` ${SECRET}\n`]);
    const listed = configWith({ SESSION_SECRET: `${SECRET}\n`, SESSION_SECRET_PREVIOUS: "old-secret-0123456789abcdef" });
    expect(listed.previousSessionSecrets).toEqual(["old-secret-0123456789abcdef", `${SECRET}\n`]);
    // One without spaces around it adds nothing to try.
    expect(configWith({ SESSION_SECRET: SECRET }).previousSessionSecrets).toEqual([]);
  });

  it("refuses one that is only spaces", () => {
    expect(refusalOf({ SESSION_SECRET: " \n" })).toBe(
      "SESSION_SECRET is only spaces: set it to a secret (openssl rand -base64 32), or leave it unset for one kept in DATA_DIR.",
    );
  });

  it("refuses a list holding the current secret, spaces around either", () => {
    expect(refusalOf({ SESSION_SECRET: `${SECRET}\n`, SESSION_SECRET_PREVIOUS: SECRET })).toMatch(
      /^SESSION_SECRET_PREVIOUS lists the current SESSION_SECRET/,
    );
  });
});

describe("SESSION_SECRET_PREVIOUS (decision 0061)", () => {
  const OLD = "old-secret-0123456789abcdef";
  const OLDER = "older-secret-abcdefghijklmnop";

  it("is empty when unset or blank", () => {
    expect(configWith({}).previousSessionSecrets).toEqual([]);
    expect(configWith({ SESSION_SECRET_PREVIOUS: "" }).previousSessionSecrets).toEqual([]);
    expect(configWith({ SESSION_SECRET_PREVIOUS: " , ,, " }).previousSessionSecrets).toEqual([]);
  });

  it("takes several secrets separated by commas, trimmed, empty entries and repeats ignored", () => {
    expect(configWith({ SESSION_SECRET_PREVIOUS: OLD }).previousSessionSecrets).toEqual([OLD]);
    expect(configWith({ SESSION_SECRET_PREVIOUS: ` ${OLD} ,, ${OLDER},\t${OLD}, ` }).previousSessionSecrets).toEqual([OLD, OLDER]);
    // Signing stays with SESSION_SECRET.
    expect(configWith({ SESSION_SECRET_PREVIOUS: OLD }).sessionSecret).toBe("test");
  });

  it("refuses a short entry, or one with a space inside, naming its place and never its value", () => {
    const short = refusalOf({ SESSION_SECRET_PREVIOUS: `${OLD},tooshort` });
    expect(short).toMatch(/^SESSION_SECRET_PREVIOUS: entry 2 must be at least 16 characters with no spaces/);
    expect(short).not.toContain("tooshort");
    expect(short).not.toContain(OLD);
    const spaced = refusalOf({ SESSION_SECRET_PREVIOUS: `${OLD} ${OLDER}` });
    expect(spaced).toMatch(/^SESSION_SECRET_PREVIOUS: entry 1 must be at least 16 characters with no spaces/);
    expect(spaced).not.toContain(OLD);
    // Listed with the other refusals, in the schema's order.
    expect(refusalOf({ SESSION_SECRET_PREVIOUS: "x", CHECKOUTS_PER_IP: "0" }).split("\n")).toHaveLength(2);
  });

  it("refuses more than four secrets: each one is tried on every forged cookie", () => {
    const five = [1, 2, 3, 4, 5].map((n) => `${OLD}-${n}`);
    expect(configWith({ SESSION_SECRET_PREVIOUS: five.slice(0, 4).join(",") }).previousSessionSecrets).toEqual(five.slice(0, 4));
    const refused = refusalOf({ SESSION_SECRET_PREVIOUS: five.join(",") });
    expect(refused).toBe(
      "SESSION_SECRET_PREVIOUS: at most 4 secrets, not 5. Remove the oldest: each one listed is tried on every cookie and link a stranger sends.",
    );
    // A repeat counts once.
    expect(configWith({ SESSION_SECRET_PREVIOUS: [...five.slice(0, 4), five[0]].join(",") }).previousSessionSecrets).toHaveLength(4);
  });

  it("refuses a list that holds the current secret: the new one was never set", () => {
    expect(refusalOf({ SESSION_SECRET: OLD, SESSION_SECRET_PREVIOUS: `${OLDER},${OLD}` })).toBe(
      "SESSION_SECRET_PREVIOUS lists the current SESSION_SECRET: set SESSION_SECRET to the new secret, and list only earlier ones in SESSION_SECRET_PREVIOUS.",
    );
  });
});
