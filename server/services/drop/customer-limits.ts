import url from "node:url";
import { sql, type Transaction } from "kysely";
import type { DB } from "#db/schema";
import { limitMessage } from "#server/contracts/limits";
import { Conflict } from "#server/errors";
import { lockProductRows } from "#server/services/catalog/product-stock";

/** A purchase over a product's per-customer limit (a 409, as any Conflict); the metrics count it apart. */
export class LimitReached extends Conflict {
  // A Conflict to every caller and log; the class only lets the metrics tell the outcome apart.
  override name = "Conflict";
}

/**
 * The per-customer limit (issue 12 part 3, decision 0020). A "customer" is the same e-mail
 * (folded as one mailbox) or the same shipping address (normalised): a second address or e-mail
 * alone does not make a second customer.
 */

/**
 * Case folding for any script: upper then lower folds what lower alone keeps apart (ß and SS,
 * final and medial sigma). Compatibility forms (full-width letters, ligatures) first become plain.
 */
const fold = (text: string): string => text.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC");

const GMAIL = new Set(["gmail.com", "googlemail.com"]);

/**
 * One key per mailbox, as the mail providers deliver: case-folded in every script; a `+tag` is
 * the same mailbox at any provider that delivers it (all the large ones do, and a shop's limit
 * would rather fold one stranger too many than let `+1` ... `+99` each buy); Gmail ignores dots
 * and answers to googlemail.com too. The domain is compared in its ASCII (punycode) form.
 */
export function customerKeyOf(email: string): string {
  const address = fold(email).trim();
  const at = address.lastIndexOf("@");
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.$/, "");
  domain = url.domainToASCII(domain) || domain;
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) {
    local = local.replaceAll(".", "") || local;
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

// The spellings people type for the same street; enough to catch "12 Main Street" = "12 main st.".
const ABBREVIATIONS: Record<string, string> = {
  street: "st",
  avenue: "ave",
  road: "rd",
  boulevard: "blvd",
  drive: "dr",
  lane: "ln",
  court: "ct",
  place: "pl",
  apartment: "apt",
  suite: "ste",
  unit: "apt",
  north: "n",
  south: "s",
  east: "e",
  west: "w",
};

// Words of any script: Latin accents are dropped ("Café" is "cafe"), other scripts' letters and
// marks kept (a Tokyo or Delhi street is not an empty string; Cyrillic й is not и), case folded
// as for e-mail.
const words = (text: string): string =>
  fold(text)
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFC")
    .replace(/#/g, " apt ")
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(" ");

export function addressKeyOf(address: { street: string; city: string; state: string; zipCode: string; country: string }): string {
  const country = address.country.trim().toUpperCase();
  const zip = address.zipCode.replace(/\s+/g, "").toUpperCase();
  // ZIP+4 and the five digits are the same place.
  const postal = country === "US" ? zip.slice(0, 5) : zip;
  return [words(address.street), words(address.city), address.state.trim().toUpperCase(), postal, country].join("|");
}

/**
 * Inside Process Order's write transaction, after this order's items are written: refuses when
 * this customer's units of a limited product, over every order that still counts, pass the limit.
 * The products' rows are locked first (`lockProductRows`; a no-op when the caller already holds
 * them), so a concurrent order of the same customer counts after this one commits. What counts:
 * paid orders that are not cancelled or refunded, and unpaid ones whose hold is still live.
 * Expired, cancelled and refunded orders do not: the shopper never got (or gave back) those units.
 */
export async function assertWithinLimits(
  trx: Transaction<DB>,
  input: { customerKey: string; addressKey: string; productIds: number[]; now: string },
): Promise<void> {
  await lockProductRows(trx, input.productIds);
  const limited = await trx
    .selectFrom("products")
    .select(["id", "name", "maxPerCustomer"])
    .where("id", "in", input.productIds)
    .where("maxPerCustomer", "is not", null)
    .execute();
  for (const product of limited) {
    const { owned } = await trx
      .selectFrom("orderItems as i")
      .innerJoin("orders as o", "o.id", "i.orderId")
      .select(sql<number>`coalesce(sum(i.quantity), 0)`.as("owned"))
      .where("i.productId", "=", product.id)
      .where((eb) => eb.or([eb("o.customerKey", "=", input.customerKey), eb("o.addressKey", "=", input.addressKey)]))
      .where("o.status", "!=", "cancelled")
      .where("o.refundStatus", "!=", "completed")
      .where((eb) => eb.or([eb("o.paidAt", "is not", null), eb("o.holdExpiresAt", ">", input.now)]))
      .executeTakeFirstOrThrow();
    if (Number(owned) > product.maxPerCustomer!) throw new LimitReached(limitMessage(product.maxPerCustomer!, product.name));
  }
}
