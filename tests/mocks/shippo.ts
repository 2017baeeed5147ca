import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/** Shippo's API as the `shippo` v2 SDK reaches it. */
export const SHIPPO_API = "https://api.goshippo.com";

/**
 * Addresses the mock treats specially: no carrier serves the undeliverable one (a 201 shipment
 * with no rates and USPS's message, as Shippo answers), and labels to the label-error one fail
 * with a transaction in status ERROR.
 */
export const SHIPPO_TEST_ADDRESSES = {
  undeliverableZip: "00000",
  labelErrorStreet: "13 Label Error Way",
} as const;
export const SHIPPO_UNDELIVERABLE_MESSAGE =
  "The address as submitted could not be found. Please check for excessive abbreviations in the street address line or in the City name.";
export const SHIPPO_CUSTOMS_REQUIRED_MESSAGE = "A customs declaration is required for international shipments.";
export const SHIPPO_LABEL_ERROR_MESSAGE =
  "The recipient address could not be verified by the carrier. Please correct the address and try again.";

type Json = Record<string, unknown>;
interface WireAddress {
  name?: string;
  street1?: string;
  city?: string;
  state?: string;
  zip?: string;
  country: string;
  phone?: string;
  email?: string;
}
interface WireParcel {
  length: string;
  width: string;
  height: string;
  distance_unit: string;
  weight: string;
  mass_unit: string;
}

const objectId = () => crypto.randomBytes(16).toString("hex");
const OWNER = "shippo-test@legacy.example";
const CARRIER_ACCOUNTS: Record<string, string> = { USPS: objectId(), UPS: objectId(), "DHL Express": objectId() };

/** Services, by zone: [provider, token, name, days, base cents, cents per extra lb]. Deliberately not sorted by price. */
const SERVICES: Record<"domestic" | "international", [string, string, string, number, number, number][]> = {
  domestic: [
    ["UPS", "ups_ground", "Ground", 4, 1189, 105],
    ["USPS", "usps_priority", "Priority Mail", 2, 945, 120],
    ["USPS", "usps_ground_advantage", "Ground Advantage", 5, 545, 70],
    ["USPS", "usps_priority_express", "Priority Mail Express", 1, 3085, 260],
  ],
  international: [
    ["DHL Express", "dhl_express_worldwide", "Express Worldwide", 3, 5210, 650],
    ["USPS", "usps_priority_mail_international", "Priority Mail International", 8, 4480, 480],
  ],
};

/** What the mocked Shippo account has seen and holds. */
export const shippoState = {
  requests: [] as { method: string; path: string; body: Json }[],
  shipments: new Map<string, Json>(),
  rates: new Map<string, { rate: Json; shipment: Json }>(),
  transactions: new Map<string, Json>(),
  /** When set, the next label purchase fails with this message (status ERROR). */
  nextTransactionError: null as string | null,
  reset() {
    this.requests.length = 0;
    this.shipments.clear();
    this.rates.clear();
    this.transactions.clear();
    this.nextTransactionError = null;
  },
  /** The bodies of the shipments the SDK created, oldest first. */
  shipmentRequests(): Json[] {
    return this.requests.filter((r) => r.method === "POST" && r.path === "/shipments").map((r) => r.body);
  },
  transactionRequests(): Json[] {
    return this.requests.filter((r) => r.method === "POST" && r.path === "/transactions").map((r) => r.body);
  },
};

function unauthorized(request: Request) {
  const auth = request.headers.get("authorization") ?? "";
  return /^ShippoToken shippo_(test|live)_\S+$/.test(auth) ? null : HttpResponse.json({ detail: "Invalid token." }, { status: 401 });
}

function addressObject(address: WireAddress, now: string): Json {
  return {
    object_id: objectId(),
    object_created: now,
    object_updated: now,
    object_owner: OWNER,
    is_complete: Boolean(address.name && address.street1 && address.city && address.zip),
    name: address.name ?? "",
    company: "",
    street1: address.street1 ?? "",
    street2: "",
    city: address.city ?? "",
    state: address.state ?? "",
    zip: address.zip ?? "",
    country: address.country,
    phone: address.phone ?? "",
    email: address.email ?? "",
    metadata: "",
    test: true,
    validation_results: {},
  };
}

function ratesFor(shipmentId: string, to: WireAddress, parcel: WireParcel | undefined, now: string): Json[] {
  if (!parcel || to.zip?.trim() === SHIPPO_TEST_ADDRESSES.undeliverableZip || !to.street1 || !to.zip) return [];
  const pounds = Math.max(1, Math.ceil(Number(parcel.weight)));
  const zone = to.country.toUpperCase() === "US" ? "domestic" : "international";
  const rates: Json[] = SERVICES[zone].map(([provider, token, name, days, base, perLb]) => {
    const amount = ((base + (pounds - 1) * perLb) / 100).toFixed(2);
    return {
      object_id: objectId(),
      object_created: now,
      object_owner: OWNER,
      shipment: shipmentId,
      attributes: [] as string[],
      amount,
      currency: "USD",
      amount_local: amount,
      currency_local: "USD",
      provider,
      provider_image_75: `https://shippo-static.s3.amazonaws.com/providers/75/${provider.split(" ")[0]}.png`,
      provider_image_200: `https://shippo-static.s3.amazonaws.com/providers/200/${provider.split(" ")[0]}.png`,
      servicelevel: { name, token, terms: "", extended_token: token },
      estimated_days: days,
      duration_terms: `Delivery in ${days} business day${days === 1 ? "" : "s"}.`,
      carrier_account: CARRIER_ACCOUNTS[provider],
      zone: zone === "domestic" ? "5" : "9",
      messages: [],
      test: true,
    };
  });
  const cheapest = rates.reduce((a, b) => (Number(a.amount) <= Number(b.amount) ? a : b));
  const fastest = rates.reduce((a, b) => ((a.estimated_days as number) <= (b.estimated_days as number) ? a : b));
  (cheapest.attributes as string[]).push("CHEAPEST", "BESTVALUE");
  (fastest.attributes as string[]).push("FASTEST");
  return rates;
}

/** Tracking numbers shaped like each carrier's (USPS 22 digits, UPS "1Z…", DHL 10 digits). */
const trackingNumberFor = (provider: string) =>
  provider === "UPS"
    ? `1Z${crypto.randomBytes(8).toString("hex").toUpperCase().slice(0, 16)}`
    : provider === "USPS"
      ? `9400${crypto.randomInt(10 ** 8, 10 ** 9)}${crypto.randomInt(10 ** 8, 10 ** 9)}`
      : String(crypto.randomInt(10 ** 9, 10 ** 10));

export const shippoHandlers = [
  http.get(`${SHIPPO_API}/carrier_accounts`, () => HttpResponse.json({ next: null, previous: null, results: [] })),

  http.post(`${SHIPPO_API}/shipments`, async ({ request }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    const body = (await request.json()) as Json;
    shippoState.requests.push({ method: "POST", path: "/shipments", body });
    const from = body.address_from as WireAddress | undefined;
    const to = body.address_to as WireAddress | undefined;
    const parcels = (body.parcels as WireParcel[] | undefined) ?? [];
    const fieldErrors: Record<string, string[]> = {};
    if (!from?.country) fieldErrors.address_from = ["This field is required."];
    if (!to?.country) fieldErrors.address_to = ["This field is required."];
    if (parcels.length === 0) fieldErrors.parcels = ["This field is required."];
    if (Object.keys(fieldErrors).length) return HttpResponse.json(fieldErrors, { status: 400 });

    const now = new Date().toISOString();
    const id = objectId();
    const rates = ratesFor(id, to!, parcels[0], now);
    // An inline declaration becomes its own object (its items too, answered as their ids), as Shippo stores it.
    const declared = body.customs_declaration as (Json & { items?: Json[] }) | undefined;
    const customs = declared
      ? {
          ...declared,
          items: (declared.items ?? []).map(() => objectId()),
          object_id: objectId(),
          object_state: "VALID",
          object_created: now,
          object_owner: OWNER,
          test: true,
        }
      : null;
    const shipment = {
      object_id: id,
      object_created: now,
      object_updated: now,
      object_owner: OWNER,
      status: "SUCCESS",
      shipment_date: now,
      address_from: addressObject(from!, now),
      address_to: addressObject(to!, now),
      address_return: addressObject(from!, now),
      parcels: parcels.map((p) => ({
        ...p,
        object_id: objectId(),
        object_state: "VALID",
        object_created: now,
        object_updated: now,
        object_owner: OWNER,
        test: true,
      })),
      carrier_accounts: [],
      extra: {},
      rates,
      messages: rates.length ? [] : [{ source: "USPS", code: "", text: SHIPPO_UNDELIVERABLE_MESSAGE }],
      metadata: typeof body.metadata === "string" ? body.metadata : "",
      ...(customs ? { customs_declaration: customs } : {}),
      test: true,
    };
    shippoState.shipments.set(id, shipment);
    for (const rate of rates) shippoState.rates.set(rate.object_id as string, { rate, shipment });
    return HttpResponse.json(shipment, { status: 201 });
  }),

  http.post(`${SHIPPO_API}/transactions`, async ({ request }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    const body = (await request.json()) as Json;
    shippoState.requests.push({ method: "POST", path: "/transactions", body });
    const rateId = typeof body.rate === "string" ? body.rate : "";
    const found = shippoState.rates.get(rateId);
    if (!found) return HttpResponse.json({ rate: [`Rate with object_id '${rateId}' does not exist.`] }, { status: 400 });

    const now = new Date().toISOString();
    const id = objectId();
    const to = found.shipment.address_to as { street1: string };
    const from = found.shipment.address_from as { country: string };
    const abroad = (found.shipment.address_to as { country: string }).country !== from.country;
    const failure =
      shippoState.nextTransactionError ??
      (to.street1 === SHIPPO_TEST_ADDRESSES.labelErrorStreet ? SHIPPO_LABEL_ERROR_MESSAGE : null) ??
      (abroad && !found.shipment.customs_declaration ? SHIPPO_CUSTOMS_REQUIRED_MESSAGE : null);
    shippoState.nextTransactionError = null;
    const provider = found.rate.provider as string;
    const base = {
      object_id: id,
      object_created: now,
      object_updated: now,
      object_owner: OWNER,
      object_state: failure ? "INVALID" : "VALID",
      rate: rateId,
      parcel: ((found.shipment.parcels as Json[])[0]?.object_id as string) ?? "",
      metadata: typeof body.metadata === "string" ? body.metadata : "",
      label_file_type: typeof body.label_file_type === "string" ? body.label_file_type : "PDF",
      test: true,
    };
    const transaction = failure
      ? {
          ...base,
          status: "ERROR",
          tracking_number: "",
          tracking_status: "UNKNOWN",
          tracking_url_provider: "",
          label_url: "",
          messages: [{ source: provider, code: "", text: failure }],
        }
      : {
          ...base,
          status: "SUCCESS",
          tracking_number: trackingNumberFor(provider),
          tracking_status: "UNKNOWN",
          tracking_url_provider: `https://goshippo.com/tracking/${provider.toLowerCase().replace(/\W+/g, "_")}/${id}`,
          label_url: `https://deliver.goshippo.com/${id}.pdf?Expires=${Math.floor(Date.now() / 1000) + 86_400}&Signature=test&Key-Pair-Id=APKATEST`,
          messages: [],
        };
    shippoState.transactions.set(id, transaction);
    return HttpResponse.json(transaction, { status: 201 });
  }),

  // Labels bought, newest first, filtered as Shippo filters them (rate, object_status).
  http.get(`${SHIPPO_API}/transactions`, ({ request }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    const url = new URL(request.url);
    shippoState.requests.push({ method: "GET", path: "/transactions", body: Object.fromEntries(url.searchParams) });
    const rate = url.searchParams.get("rate");
    const status = url.searchParams.get("object_status");
    const results = [...shippoState.transactions.values()]
      .filter((t) => (!rate || t.rate === rate) && (!status || t.status === status))
      .reverse()
      .slice(0, Number(url.searchParams.get("results") ?? 25));
    return HttpResponse.json({ results });
  }),
];
