import crypto from "node:crypto";
import { signedByAny, type SessionSecrets } from "#server/services/security/session-secrets";

/**
 * The early-access pass a browser holds after opening its link (decision 0020):
 * `<link id>.<random secret>.<HMAC-SHA256 of both>`. The MAC lets anything check a pass cheaply and
 * without the database (the page cache steps aside for it); the database holds only a hash of the
 * secret, and says whether the link is still good (not revoked). Passes and links are made under
 * the current SESSION_SECRET and read under it or a listed previous one (decision 0061).
 */

const PURPOSE = "legacy-store/early-access-pass/v1:";
const LINK_PURPOSE = "legacy-store/early-access-link/v1:";
const PASS = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{32})\.([A-Za-z0-9_-]{43})$/;
const LINK = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/;

const mac = (secret: string, text: string) => crypto.createHmac("sha256", secret).update(text).digest();

export const hashOf = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

/** A new pass for a link: the cookie's value and the hash the database keeps. */
export function newPass(sessionSecret: string, linkId: number): { value: string; hash: string } {
  const secret = crypto.randomBytes(24).toString("base64url");
  const signed = `${linkId}.${secret}`;
  return { value: `${signed}.${mac(sessionSecret, PURPOSE + signed).toString("base64url")}`, hash: hashOf(secret) };
}

/** The link id and secret hash of a genuine pass; null for anything forged or malformed. */
export function readPass(secrets: SessionSecrets, value: string | null | undefined): { linkId: number; hash: string } | null {
  const match = PASS.exec(value ?? "");
  if (!match) return null;
  const signed = `${match[1]}.${match[2]}`;
  return signedByAny(secrets, match[3]!, (secret) => mac(secret, PURPOSE + signed))
    ? { linkId: Number(match[1]), hash: hashOf(match[2]!) }
    : null;
}

/** A link's token: `<id>.<HMAC>`. Rebuilt from the id at will, so nothing secret is stored. */
export const linkToken = (sessionSecret: string, id: number) => `${id}.${mac(sessionSecret, LINK_PURPOSE + id).toString("base64url")}`;

export function linkIdOf(secrets: SessionSecrets, token: string | null | undefined): number | null {
  const match = LINK.exec(token ?? "");
  if (!match) return null;
  return signedByAny(secrets, match[2]!, (secret) => mac(secret, LINK_PURPOSE + match[1])) ? Number(match[1]) : null;
}
