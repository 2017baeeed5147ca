import crypto from "node:crypto";
import type { Config } from "#server/config";

/**
 * The secrets a signature is checked against (decision 0061): SESSION_SECRET, which signs
 * everything new, then each SESSION_SECRET_PREVIOUS still listed, accepted only to verify.
 */
export type SessionSecrets = Pick<Config, "sessionSecret" | "previousSessionSecrets">;

/** The current secret, then the previous ones: what a verifier tries, in order. */
export function acceptedSecrets(secrets: SessionSecrets): readonly string[] {
  return secrets.previousSessionSecrets.length === 0 ? [secrets.sessionSecret] : [secrets.sessionSecret, ...secrets.previousSessionSecrets];
}

/**
 * True when `given` (base64url text from a client) is the MAC `macOf` makes under the current
 * secret or a listed previous one. Each comparison is constant-time (timingSafeEqual over equal
 * lengths); the loop stops at the first secret that matches, which tells a holder of a genuine
 * value only which secret signed it. Never throws: base64url decoding of any text gives bytes, and
 * a length that differs is a mismatch.
 */
export function signedByAny(secrets: SessionSecrets, given: string, macOf: (secret: string) => Buffer): boolean {
  const bytes = Buffer.from(given, "base64url");
  const matches = (secret: string) => {
    const expected = macOf(secret);
    return bytes.length === expected.length && crypto.timingSafeEqual(bytes, expected);
  };
  if (matches(secrets.sessionSecret)) return true;
  for (const secret of secrets.previousSessionSecrets) if (matches(secret)) return true;
  return false;
}
