/**
 * What a state taxes when the store ships it clothing: one row per state (and DC).
 *
 * `ratePercent` is the state-level general sales tax rate as in effect on 1 January 2025.
 * Source: Tax Foundation, "State and Local Sales Tax Rates, 2025" (state rate column). Local
 * (county/city) rates are not included: the store charges the state rate only. So each row is
 * the state portion alone, and a rule that exempts "the state portion" exempts the whole row.
 *
 * `clothing` is the state's rule for clothing and footwear, the only goods the store sells
 * (caps included: the clothing definitions name hats and caps). Fur, formal wear, costumes,
 * jewellery and sports gear fall outside these exemptions; the catalogue carries none.
 *   - "exempt": no tax on clothing at all.
 *   - "exemptBelow": an item priced under `limitCents` is exempt from `exemptPercent` of the
 *     rate; the rest of the rate (none, here) and items at or above the limit pay it all.
 *   - "exemptUpTo": the first `limitCents` of every item is exempt; the excess is taxed.
 * Limits apply per item, to its unit price as sold (after the store's own discount), never to
 * a line or the order: two $100 shirts are two items under $110.
 * Rows without a rule tax clothing like anything else (clothing is taxable there); temporary
 * sales-tax holidays (TX, FL, MD, ...) are not modelled.
 *
 * `taxesShipping`: the state counts separately stated delivery charges by common carrier as part
 * of the taxable price of taxable goods. Conservative by design: only the states where the
 * sources agree that delivery charges are included even when stated separately on the invoice.
 * States whose answer depends on conditions the store cannot show (CA: only the part above
 * actual cost; DC and LA: when delivery follows the sale; FL: when the buyer could have picked
 * up; IL: unless delivery is separately contracted; MI, MO: it depends) or where the sources
 * disagree (KY) are left untaxed here and need an adviser's review.
 * Sources, checked 2025: the statutes' "sales price" definitions cited per row (for the
 * Streamlined Sales Tax members among them: AR, GA, IN, KS, MN, NE, NJ, NC, ND, OH, RI, SD, TN,
 * VT, WA, WV, WI) and the state-by-state tables "Sales Tax on Shipping" (Whatnot Help Center)
 * and "How to handle sales tax on shipping: a state-by-state guide" (Avalara, updated 2024).
 * Where delivery is taxable and a parcel holds exempt and taxable goods, the charge is taxed in
 * the share of the taxable goods by price (the SST definition of delivery charges allows this).
 *
 * Review every January.
 */
export type ClothingRule =
  { kind: "exempt" } | { kind: "exemptBelow"; limitCents: number; exemptPercent: number } | { kind: "exemptUpTo"; limitCents: number };

export interface StateTaxRule {
  name: string;
  ratePercent: number;
  clothing?: ClothingRule;
  taxesShipping: boolean;
}

const EXEMPT: ClothingRule = { kind: "exempt" };

export const US_STATE_TAX_RULES_2025: Record<string, StateTaxRule> = {
  AL: { name: "Alabama", ratePercent: 4, taxesShipping: false }, // common-carrier delivery exempt when billed separately (Ala. Admin. Code 810-6-1-.178)
  AK: { name: "Alaska", ratePercent: 0, taxesShipping: false }, // no state sales tax (not clothing-specific); local taxes not collected
  AZ: { name: "Arizona", ratePercent: 5.6, taxesShipping: false }, // separately stated shipping exempt (Ariz. Admin. Code R15-5-133)
  AR: { name: "Arkansas", ratePercent: 6.5, taxesShipping: true }, // delivery charges in "sales price" (Ark. Code 26-52-103)
  CA: { name: "California", ratePercent: 7.25, taxesShipping: false }, // actual cost by common carrier, separately stated: exempt (Reg. 1628)
  CO: { name: "Colorado", ratePercent: 2.9, taxesShipping: false }, // separately stated delivery exempt
  CT: { name: "Connecticut", ratePercent: 6.35, taxesShipping: true }, // delivery charges taxable with taxable goods (Conn. Gen. Stat. 12-407)
  DE: { name: "Delaware", ratePercent: 0, taxesShipping: false }, // no sales tax (not clothing-specific)
  DC: { name: "District of Columbia", ratePercent: 6, taxesShipping: false }, // conditional (delivery after the sale): left untaxed, see above
  FL: { name: "Florida", ratePercent: 6, taxesShipping: false }, // conditional (Rule 12A-1.045): left untaxed, see above
  GA: { name: "Georgia", ratePercent: 4, taxesShipping: true }, // O.C.G.A. 48-8-2 "sales price" includes delivery charges
  HI: { name: "Hawaii", ratePercent: 4, taxesShipping: true }, // general excise tax on gross income, delivery included (HRS 237)
  ID: { name: "Idaho", ratePercent: 6, taxesShipping: false }, // separately stated transportation exempt (Idaho Code 63-3613)
  IL: { name: "Illinois", ratePercent: 6.25, taxesShipping: false }, // conditional (86 Ill. Adm. Code 130.415): left untaxed, see above
  IN: { name: "Indiana", ratePercent: 7, taxesShipping: true }, // Ind. Code 6-2.5-1-5 includes delivery charges
  IA: { name: "Iowa", ratePercent: 6, taxesShipping: false }, // separately contracted and stated delivery exempt
  KS: { name: "Kansas", ratePercent: 6.5, taxesShipping: true }, // K.S.A. 79-3602 includes delivery charges
  KY: { name: "Kentucky", ratePercent: 6, taxesShipping: false }, // sources disagree on separately stated delivery (KRS 139.010): left untaxed
  LA: { name: "Louisiana", ratePercent: 5, taxesShipping: false }, // conditional: left untaxed, see above
  ME: { name: "Maine", ratePercent: 5.5, taxesShipping: false }, // separately stated shipping after the sale exempt
  MD: { name: "Maryland", ratePercent: 6, taxesShipping: false }, // separately stated delivery exempt
  // Mass. Gen. Laws c. 64H §6(k): an article of clothing is taxed only on its price above $175.
  MA: { name: "Massachusetts", ratePercent: 6.25, clothing: { kind: "exemptUpTo", limitCents: 17_500 }, taxesShipping: false }, // separately stated delivery exempt
  MI: { name: "Michigan", ratePercent: 6, taxesShipping: false }, // depends on when delivery takes place: left untaxed, see above
  // Minn. Stat. 297A.67 subd. 8: clothing exempt.
  MN: { name: "Minnesota", ratePercent: 6.875, clothing: EXEMPT, taxesShipping: true }, // Minn. Stat. 297A.61 subd. 7 includes delivery charges
  MS: { name: "Mississippi", ratePercent: 7, taxesShipping: true }, // gross proceeds include transportation (Miss. Code 27-65-3)
  MO: { name: "Missouri", ratePercent: 4.225, taxesShipping: false }, // depends (usual and customary, separately stated): left untaxed
  MT: { name: "Montana", ratePercent: 0, taxesShipping: false }, // no general sales tax (not clothing-specific)
  NE: { name: "Nebraska", ratePercent: 5.5, taxesShipping: true }, // Neb. Rev. Stat. 77-2701.35 includes delivery charges
  NV: { name: "Nevada", ratePercent: 6.85, taxesShipping: false }, // separately stated delivery exempt
  NH: { name: "New Hampshire", ratePercent: 0, taxesShipping: false }, // no sales tax (not clothing-specific)
  // N.J.S.A. 54:32B-8.4: clothing and footwear exempt.
  NJ: { name: "New Jersey", ratePercent: 6.625, clothing: EXEMPT, taxesShipping: true }, // N.J.S.A. 54:32B-2 "sales price" includes delivery charges
  NM: { name: "New Mexico", ratePercent: 4.875, taxesShipping: true }, // gross receipts tax on the whole receipt, delivery included
  // N.Y. Tax Law §1115(a)(30), Tax Bulletin ST-530: clothing and footwear sold for less than $110
  // an item are exempt from the 4% state tax; local taxes apply unless the locality opted in.
  // The row holds the 4% state portion only, so under $110 nothing of it is left to charge.
  NY: { name: "New York", ratePercent: 4, clothing: { kind: "exemptBelow", limitCents: 11_000, exemptPercent: 4 }, taxesShipping: true }, // Tax Law §1101(b)(3): receipts include shipping (TB-ST-838)
  NC: { name: "North Carolina", ratePercent: 4.75, taxesShipping: true }, // N.C.G.S. 105-164.3 includes delivery charges
  ND: { name: "North Dakota", ratePercent: 5, taxesShipping: true }, // N.D.C.C. 57-39.2-01 includes delivery charges
  OH: { name: "Ohio", ratePercent: 5.75, taxesShipping: true }, // R.C. 5739.01 "price" includes delivery charges
  OK: { name: "Oklahoma", ratePercent: 4.5, taxesShipping: false }, // separately stated delivery exempt
  OR: { name: "Oregon", ratePercent: 0, taxesShipping: false }, // no sales tax (not clothing-specific)
  // 72 P.S. §7204(26): clothing exempt (formal day or evening apparel and furs excepted).
  PA: { name: "Pennsylvania", ratePercent: 6, clothing: EXEMPT, taxesShipping: true }, // delivery charges part of the purchase price of taxable goods
  // R.I. Gen. Laws §44-18-30(27): the first $250 of each item of clothing or footwear is exempt.
  RI: { name: "Rhode Island", ratePercent: 7, clothing: { kind: "exemptUpTo", limitCents: 25_000 }, taxesShipping: true }, // R.I. Gen. Laws §44-18-12 includes delivery charges
  SC: { name: "South Carolina", ratePercent: 6, taxesShipping: true }, // S.C. Code 12-36-90 gross proceeds include transportation
  SD: { name: "South Dakota", ratePercent: 4.2, taxesShipping: true }, // SDCL 10-45-1 includes delivery charges
  TN: { name: "Tennessee", ratePercent: 7, taxesShipping: true }, // T.C.A. 67-6-102 includes delivery charges
  TX: { name: "Texas", ratePercent: 6.25, taxesShipping: true }, // Tax Code §151.007 and Rule 3.303: delivery of taxable items taxable
  UT: { name: "Utah", ratePercent: 6.1, taxesShipping: false }, // separately stated delivery exempt
  // 32 V.S.A. §9741(45): clothing exempt.
  VT: { name: "Vermont", ratePercent: 6, clothing: EXEMPT, taxesShipping: true }, // 32 V.S.A. §9701 includes delivery charges
  VA: { name: "Virginia", ratePercent: 5.3, taxesShipping: false }, // separately stated transportation exempt
  WA: { name: "Washington", ratePercent: 6.5, taxesShipping: true }, // RCW 82.08.010 includes delivery charges
  WV: { name: "West Virginia", ratePercent: 6, taxesShipping: true }, // W. Va. Code 11-15B-2 includes delivery charges
  WI: { name: "Wisconsin", ratePercent: 5, taxesShipping: true }, // Wis. Stat. 77.51(15b) includes delivery charges
  WY: { name: "Wyoming", ratePercent: 4, taxesShipping: false }, // separately stated delivery exempt
};
