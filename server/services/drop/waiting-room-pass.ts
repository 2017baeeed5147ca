import crypto from "node:crypto";
import type { Config } from "#server/config";
import { signedByAny } from "#server/services/security/session-secrets";

/**
 * The waiting room's pass: `subject.expiresMs.dropMs.admittedMs.signature`, an HMAC-SHA256 under
 * the store's session secret (the one its cookies are signed with). The gate checks it on every
 * store request without touching the database, so it carries what the gate needs: whom it belongs
 * to (a place id, or an early-access id), when its holder was let in (renewal never carries it past
 * admission + passMinutes + the hold time: decision 0036), when it runs out and which drop it is for
 * (a pass from the last drop opens nothing in the next). A pass signed under a previous secret still
 * listed in SESSION_SECRET_PREVIOUS is read too; a renewal is signed under the current one (decision 0061).
 */
export interface Pass {
  subject: string;
  admittedAt: number;
  expiresAt: number;
  dropAt: number;
}

const SUBJECT = /^[A-Za-z0-9_-]{8,64}$/;

function signature(secret: string, payload: string): Buffer {
  return crypto.createHmac("sha256", secret).update(`waiting-room-pass/v2|${payload}`).digest();
}

export function signPass(config: Config, pass: Pass): string {
  if (!SUBJECT.test(pass.subject)) throw new Error(`A pass subject is 8-64 URL-safe characters, not "${pass.subject}".`);
  const payload = `${pass.subject}.${Math.floor(pass.expiresAt)}.${pass.dropAt}.${Math.floor(pass.admittedAt)}`;
  return `${payload}.${signature(config.sessionSecret, payload).toString("base64url")}`;
}

/** The pass when the token is one the store signed, for this drop and not yet expired; else null. */
export function readPass(config: Config, token: string | null | undefined, now: number, dropAt: number): Pass | null {
  if (!token || token.length > 200) return null;
  const parts = token.split(".");
  if (parts.length !== 5) return null;
  const [subject, expires, drop, admitted, sig] = parts as [string, string, string, string, string];
  const payload = `${subject}.${expires}.${drop}.${admitted}`;
  if (!signedByAny(config, sig, (secret) => signature(secret, payload))) return null;
  const pass = { subject, admittedAt: Number(admitted), expiresAt: Number(expires), dropAt: Number(drop) };
  if (!(pass.expiresAt > now) || pass.dropAt !== dropAt) return null;
  return pass;
}
