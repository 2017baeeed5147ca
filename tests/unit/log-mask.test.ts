import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/config";
import { log } from "#server/observability/log";
import { maskSecrets } from "#server/observability/log-mask";
import { expectLoggedErrors, loggedLines, loggedText } from "../setup/log-capture";

describe("what no log line carries", () => {
  it("masks e-mails, card numbers, keys, credentials and secret pairs, and keeps the line JSON", () => {
    const line = JSON.stringify({
      msg: "Order 12 for ada.buyer+drop@example.co.uk paid with 4242 4242 4242 4242 (sk_live_51AbCdEf, whsec_abcdef12) at /reset?token=s3cr3t&x=1",
      err: { stack: "Error: Bearer abc.def-ghi\n at cart=v1.signed; session=abcdef" },
      id: 1764300000000,
    });
    const masked = maskSecrets(line);
    expect(JSON.parse(masked)).toEqual({
      msg: "Order 12 for [email] paid with [card] ([key], [key]) at /reset?token=[redacted]&x=1",
      err: { stack: "Error: Bearer [redacted]\n at cart=[redacted]; session=[redacted]" },
      // Not a card number (it fails Luhn's check): a timestamp stays as it is.
      id: 1764300000000,
    });
  });

  it("keeps a request id whose digit-only groups pass Luhn's check, and still masks a card beside one", () => {
    // Ids like these were masked to "3f845b4d-7253-4352-[card]", about one in 7,700: the id an
    // answer's X-Request-Id named had no line.
    for (const id of ["3f845b4d-7253-4352-8222-939868809181", "25258261-4517-4595-8390-549051e80e22"]) {
      const line = JSON.stringify({ requestId: id, msg: "request" });
      expect(maskSecrets(line)).toBe(line);
    }
    const line = JSON.stringify({
      msg: "25258261-4517-4595-8390-549051e80e22 paid with 4242-4242-4242-4242, 4242424242424242 exp 12/30 and 4000 0566 5566 5556",
    });
    expect(JSON.parse(maskSecrets(line))).toEqual({
      msg: "25258261-4517-4595-8390-549051e80e22 paid with [card], [card] exp 12/30 and [card]",
    });
  });

  it("masks a card number written with its expiry after it, and keeps the expiry", () => {
    // The digit run takes the expiry's digits too; the whole run fails Luhn's check, the card alone passes it.
    const line = JSON.stringify({
      msg: "paid with 4242 4242 4242 4242 12/30, 4242424242424242-12/30 and 4000-0566-5566-5556 09 28; order 1764300000000 at 2026-11-29",
    });
    expect(JSON.parse(maskSecrets(line))).toEqual({
      msg: "paid with [card] 12/30, [card]-12/30 and [card] 09 28; order 1764300000000 at 2026-11-29",
    });
  });

  it("redacts fields by name and masks what a message or an error carries", () => {
    log.warn(
      {
        email: "a@b.example",
        user: { password: "hunter22", token: "tok" },
        headers: { cookie: "session=x" },
        cardNumber: "4000000000000002",
      },
      "Sign-in of carol@example.org failed",
    );
    expectLoggedErrors();
    log.error({ err: new Error("Mail to dave@example.net bounced") }, "Mail failed");
    const [warned, failed] = loggedLines();
    expect(warned).toMatchObject({
      level: "warn",
      msg: "Sign-in of [email] failed",
      email: "[redacted]",
      user: { password: "[redacted]", token: "[redacted]" },
      headers: { cookie: "[redacted]" },
      cardNumber: "[redacted]",
    });
    expect(failed!.err).toMatchObject({ message: "Mail to [email] bounced" });
    expect(failed!.err!.stack).toContain("Mail to [email] bounced");
    expect(loggedText()).not.toMatch(/@example|hunter22|4000000000000002/);
  });

  it("never writes the session secrets, current or previous, when a configuration is logged", () => {
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: "/nonexistent",
      PAYMENTS: "test",
      SESSION_SECRET: "current-secret-value-0123456789",
      SESSION_SECRET_PREVIOUS: "previous-secret-value-aaaaaaaa,previous-secret-value-bbbbbbbb",
    });
    log.info({ previousSessionSecrets: config.previousSessionSecrets, sessionSecret: config.sessionSecret }, "secrets at the top");
    log.info({ config }, "a whole configuration, one level down");
    const [top, nested] = loggedLines();
    expect(top).toMatchObject({ previousSessionSecrets: "[redacted]", sessionSecret: "[redacted]" });
    expect(nested!.config).toMatchObject({ previousSessionSecrets: "[redacted]", sessionSecret: "[redacted]" });
    expect(loggedText()).not.toMatch(/current-secret-value|previous-secret-value/);
  });
});
