import crypto from "node:crypto";
import { signedByAny, type SessionSecrets } from "#server/services/security/session-secrets";

/**
 * The tokens in a draw's e-mailed links (decision 0047): `<entry id>.<HMAC of it>`, one purpose
 * per kind of link, so a confirmation link is never a link to buy. Rebuilt from the id at will:
 * nothing secret is stored, and a resent mail carries the same link. Made under the current
 * SESSION_SECRET, read under it or a listed previous one (decision 0061): a resent mail then
 * carries the current secret's link, and the first one still works while its secret is listed.
 */
const PURPOSES = { confirm: "legacy-store/draw-confirm/v1:", claim: "legacy-store/draw-claim/v1:" } as const;
export type DrawLinkKind = keyof typeof PURPOSES;

const TOKEN = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/;

const mac = (secret: string, kind: DrawLinkKind, id: string) =>
  crypto
    .createHmac("sha256", secret)
    .update(PURPOSES[kind] + id)
    .digest();

export const drawToken = (secret: string, kind: DrawLinkKind, entryId: number): string =>
  `${entryId}.${mac(secret, kind, String(entryId)).toString("base64url")}`;

/** The entry id of a genuine token of this kind; null for anything forged or malformed. */
export function entryIdOf(secrets: SessionSecrets, kind: DrawLinkKind, token: string | null | undefined): number | null {
  const match = TOKEN.exec(token ?? "");
  if (!match) return null;
  return signedByAny(secrets, match[2]!, (secret) => mac(secret, kind, match[1]!)) ? Number(match[1]) : null;
}

export const drawConfirmUrl = (origin: string, drawId: number, token: string) => `${origin}/draws/${drawId}/confirm/${token}`;
export const drawClaimUrl = (origin: string, drawId: number, token: string) => `${origin}/draws/${drawId}/claim/${token}`;
export const drawPageUrl = (origin: string, productId: number) => `${origin}/store/${productId}`;
