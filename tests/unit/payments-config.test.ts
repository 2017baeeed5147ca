import { describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import { chargesNoCard, ConfigError, loadConfig, paymentModeName, paymentsFrom } from "#server/config";
import { startupBanner } from "#server/startup-banner";

const SECRET = { STRIPE_SECRET_KEY: "sk_live_x" };
const PUBLISHABLE = { STRIPE_PUBLISHABLE_KEY: "pk_live_x" };
const BOTH = { ...SECRET, ...PUBLISHABLE };
const HTTPS = { PUBLIC_URL: "https://shop.example" };
const OPT_IN = { PAYMENTS: "test" };
const dataDir = path.join(os.tmpdir(), "payments-config-test");

/** The message a refused configuration prints (server.js writes it to stderr and exits 1). */
function refusal(env: Record<string, string>): string {
  try {
    paymentsFrom(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).name).toBe("ConfigError");
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe("the payment mode, decided from the environment once", () => {
  it("takes Stripe when both keys are set, with or without an https PUBLIC_URL", () => {
    const stripe = { mode: "stripe", secretKey: "sk_live_x", publishableKey: "pk_live_x", webhookSecret: null };
    expect(paymentsFrom(BOTH)).toEqual(stripe);
    expect(paymentsFrom({ ...BOTH, ...HTTPS })).toEqual(stripe);
    expect(paymentsFrom({ ...BOTH, STRIPE_WEBHOOK_SECRET: "whsec_x" })).toEqual({ ...stripe, webhookSecret: "whsec_x" });
  });

  it("runs in test mode with no key at all, locally or behind a plain-http PUBLIC_URL", () => {
    expect(paymentsFrom({})).toEqual({ mode: "test" });
    expect(paymentsFrom({ PUBLIC_URL: "http://localhost:3000" })).toEqual({ mode: "test" });
    expect(paymentsFrom({ STRIPE_SECRET_KEY: "  ", STRIPE_PUBLISHABLE_KEY: "" })).toEqual({ mode: "test" });
    expect(paymentsFrom(OPT_IN)).toEqual({ mode: "test" });
  });

  it("refuses an https PUBLIC_URL without keys, naming STRIPE_SECRET_KEY and the PAYMENTS=test opt-in", () => {
    const message = refusal(HTTPS);
    expect(message).toContain("STRIPE_SECRET_KEY");
    expect(message).toContain("STRIPE_PUBLISHABLE_KEY");
    expect(message).toContain("PAYMENTS=test");
    expect(message).toContain("https://shop.example");
  });

  it("runs an https deployment in test mode when PAYMENTS=test says so", () => {
    expect(paymentsFrom({ ...HTTPS, ...OPT_IN })).toEqual({ mode: "test" });
    expect(paymentsFrom({ ...HTTPS, PAYMENTS: " TEST " })).toEqual({ mode: "test" });
  });

  it("refuses half a Stripe configuration, naming the missing key, https or not and opt-in or not", () => {
    for (const extra of [{}, HTTPS, OPT_IN, { ...HTTPS, ...OPT_IN }]) {
      expect(refusal({ ...SECRET, ...extra })).toMatch(/^STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY is not\./);
      expect(refusal({ ...PUBLISHABLE, ...extra })).toMatch(/^STRIPE_PUBLISHABLE_KEY is set but STRIPE_SECRET_KEY is not\./);
    }
  });

  it("refuses PAYMENTS=test beside both keys rather than guess which one was meant", () => {
    expect(refusal({ ...BOTH, ...OPT_IN })).toBe(
      "PAYMENTS=test asks for test mode, but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set. Unset PAYMENTS to take payments with Stripe, or unset both keys to run the store in test mode.",
    );
    expect(refusal({ ...BOTH, ...OPT_IN, ...HTTPS })).toContain("PAYMENTS=test asks for test mode");
  });

  it("refuses a PAYMENTS value it does not know", () => {
    expect(refusal({ PAYMENTS: "stripe" })).toContain('PAYMENTS is "stripe", but the only value it takes is PAYMENTS=test');
    expect(refusal({ ...BOTH, PAYMENTS: "live" })).toContain('PAYMENTS is "live"');
  });
});

describe("the payment mode by name (the start-up log, /readyz and the banner)", () => {
  const named = (env: Record<string, string>) => paymentModeName({ payments: paymentsFrom(env) });
  const noCard = (env: Record<string, string>) => chargesNoCard({ payments: paymentsFrom(env) });
  const bannerLine = (env: Record<string, string>) =>
    startupBanner(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: "s", ...env }), {
      migrations: [],
      seeded: false,
      adminCreated: null,
    }).find((line) => line.startsWith("Payments:"));

  it("names the built-in processor test, Stripe's test keys stripe-test and its live keys stripe-live", () => {
    expect(named({})).toBe("test");
    expect(named({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" })).toBe("stripe-test");
    expect(named({ STRIPE_SECRET_KEY: "rk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" })).toBe("stripe-test");
    expect(named(BOTH)).toBe("stripe-live");
    expect([noCard({}), noCard({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" }), noCard(BOTH)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("says the mode in the start-up log", () => {
    expect(bannerLine({})).toBe(
      "Payments: TEST MODE — no card is charged. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments.",
    );
    expect(bannerLine({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" })).toBe(
      "Payments: Stripe TEST MODE (test keys) — no card is charged; orders are test orders. Set the live keys (sk_live_…, pk_live_…) to take real payments.",
    );
    expect(bannerLine(BOTH)).toBe("Payments: Stripe, live (STRIPE_WEBHOOK_SECRET is not set: Stripe's webhook is refused).");
  });
});
