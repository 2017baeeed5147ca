import { Shippo } from "shippo";
import type { ShipFromAddress } from "#server/config";
import type { CustomsDeclarationCreateRequest } from "shippo/models/components";
import { centsFromDecimalText, formatDollarAmount, toDollars } from "#server/contracts/money";
import {
  methodKeyOf,
  type BoughtLabel,
  type Parcel,
  type ParcelContent,
  type RateQuote,
  type ShippingAddress,
  type ShippingProvider,
} from "./types";

type ShipmentResult = Awaited<ReturnType<Shippo["shipments"]["create"]>>;
type ShippoRate = ShipmentResult["rates"][number];
type Destination = Parameters<ShippingProvider["quote"]>[0];

/** Shippo leaves the estimate out for some services; a week is the honest guess for those. */
const DAYS_WHEN_UNKNOWN = 7;

function usdCentsOf(rate: ShippoRate): number | null {
  if (rate.currency.toUpperCase() === "USD") return centsFromDecimalText(rate.amount);
  if (rate.currencyLocal.toUpperCase() === "USD") return centsFromDecimalText(rate.amountLocal);
  return null;
}

/** Shippo's own words for what went wrong: the messages of a shipment or transaction, or an HTTP error's body. */
function shippoMessage(error: unknown): string {
  if (error && typeof error === "object" && "statusCode" in error && "body" in error) {
    const { statusCode, body } = error as { statusCode: number; body: string };
    return `Shippo answered ${statusCode}: ${String(body).slice(0, 500)}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const isClientError = (error: unknown) =>
  !!error && typeof error === "object" && "statusCode" in error && (error as { statusCode: number }).statusCode === 400;

/**
 * Shippo rates and labels (the `shippo` v2 SDK). A quote is a shipment from the store's
 * ship-from address with one parcel; a label is a transaction on the chosen rate.
 */
export function shippoShipping(apiKey: string, options: { from: ShipFromAddress; originCountry: string | null }): ShippingProvider {
  const shippo = new Shippo({ apiKeyHeader: `ShippoToken ${apiKey}` });
  const addressFrom = options.from;
  // Customs asks where the goods were made, which for apparel is rarely the warehouse's country.
  const originCountry = options.originCountry || addressFrom.country;

  /**
   * A parcel leaving the country travels with a customs declaration (the carrier prints it with
   * the label): what is inside, its weight and value, signed by the sender. Clothing is sold
   * goods ("MERCHANDISE"); duties are the recipient's (DDU); an undeliverable parcel comes back.
   */
  function customsFor(contents: ParcelContent[]): CustomsDeclarationCreateRequest {
    return {
      certify: true,
      certifySigner: addressFrom.name,
      contentsType: "MERCHANDISE",
      nonDeliveryOption: "RETURN",
      incoterm: "DDU",
      items: contents.map((item) => ({
        description: item.description.slice(0, 100),
        quantity: item.quantity,
        netWeight: String(Math.max(0.01, Math.round(item.weightLbs * item.quantity * 100) / 100)),
        massUnit: "lb",
        valueAmount: formatDollarAmount(toDollars(item.valueCents)),
        valueCurrency: "USD",
        originCountry,
      })),
    };
  }

  async function quote(to: Destination, parcel: Parcel, contents?: ParcelContent[]): Promise<RateQuote[]> {
    const abroad = to.country.toUpperCase() !== addressFrom.country.toUpperCase();
    let shipment: ShipmentResult;
    try {
      shipment = await shippo.shipments.create({
        addressFrom,
        addressTo: {
          name: to.name || "Customer",
          street1: to.street,
          city: to.city,
          state: to.state || undefined,
          zip: to.zipCode,
          country: to.country,
          phone: to.phone || undefined,
          email: to.email || undefined,
        },
        parcels: [
          {
            length: String(parcel.lengthIn),
            width: String(parcel.widthIn),
            height: String(parcel.heightIn),
            distanceUnit: "in",
            weight: String(Math.round(parcel.weightLbs * 100) / 100),
            massUnit: "lb",
          },
        ],
        ...(abroad && contents?.length ? { customsDeclaration: customsFor(contents) } : {}),
        async: false,
      });
    } catch (error) {
      // Shippo refuses an address or parcel it cannot use with a 400: no rates, as for any address we cannot ship to.
      if (isClientError(error)) return [];
      throw error;
    }
    if (shipment.status === "ERROR") return [];

    // One quote per carrier-method key (the cheapest, when several carrier accounts offer it).
    const byKey = new Map<string, RateQuote>();
    for (const rate of shipment.rates) {
      const token = rate.servicelevel.token;
      const costCents = usdCentsOf(rate);
      if (!token || costCents === null) continue;
      const quote: RateQuote = {
        key: methodKeyOf({ carrier: rate.provider, method: token }),
        carrier: rate.provider,
        method: token,
        costCents,
        description: rate.servicelevel.name || token,
        estimatedDays: rate.estimatedDays ?? DAYS_WHEN_UNKNOWN,
        providerRateId: rate.objectId,
      };
      const seen = byKey.get(quote.key);
      if (!seen || quote.costCents < seen.costCents) byKey.set(quote.key, quote);
    }
    return [...byKey.values()].sort((a, b) => a.costCents - b.costCents || a.estimatedDays - b.estimatedDays);
  }

  return {
    mode: "shippo",
    quote: (to, parcel) => quote(to, parcel),
    async buyLabel({
      orderId,
      to,
      parcel,
      methodKey,
      contents,
      idempotencyKey,
      remember,
    }: {
      orderId: number;
      to: ShippingAddress;
      parcel: Parcel;
      methodKey: string;
      contents?: ParcelContent[];
      idempotencyKey?: string;
      remember?: (providerRef: string) => Promise<void>;
    }): Promise<BoughtLabel> {
      // Rates expire: quote again (with the customs declaration abroad) and buy the one the buyer chose.
      const rate = (await quote(to, parcel, contents)).find((r) => r.key === methodKey);
      if (!rate?.providerRateId) throw new Error(`Shippo offers no ${methodKey} service to this address any more.`);
      // Shippo takes no idempotency key for a transaction: the rate is recorded before buying and
      // the key rides in the metadata, so `findLabel` finds this purchase if its answer is lost.
      await remember?.(rate.providerRateId);
      let transaction: Awaited<ReturnType<Shippo["transactions"]["create"]>>;
      try {
        transaction = await shippo.transactions.create({
          rate: rate.providerRateId,
          labelFileType: "PDF_4x6",
          async: false,
          metadata: metadataOf(orderId, idempotencyKey),
        });
      } catch (error) {
        throw new Error(shippoMessage(error), { cause: error });
      }
      if (transaction.status !== "SUCCESS" || !transaction.labelUrl || !transaction.trackingNumber) {
        const said = (transaction.messages ?? [])
          .map((m) => m.text?.trim())
          .filter(Boolean)
          .join(" ");
        throw new Error(said || `Shippo did not create the label (status ${transaction.status ?? "unknown"}).`);
      }
      return {
        labelUrl: transaction.labelUrl,
        trackingNumber: transaction.trackingNumber,
        carrier: rate.carrier,
        costCents: rate.costCents,
        providerRef: transaction.objectId,
      };
    },
    async findLabel({ orderId, idempotencyKey, providerRef }) {
      // Nothing recorded: the purchase never started (the rate is remembered before buying).
      if (!providerRef) return null;
      const metadata = metadataOf(orderId, idempotencyKey);
      let page;
      try {
        page = await shippo.transactions.list({ rate: providerRef, objectStatus: "SUCCESS", results: 25 });
      } catch (error) {
        throw new Error(shippoMessage(error), { cause: error });
      }
      const bought = (page.results ?? []).find((t) => t.metadata === metadata && t.labelUrl && t.trackingNumber);
      return bought ? { labelUrl: bought.labelUrl!, trackingNumber: bought.trackingNumber!, providerRef: bought.objectId } : null;
    },
  };
}

/** What a label's transaction carries: the order for a person reading Shippo, the key for findLabel. */
const metadataOf = (orderId: number, idempotencyKey?: string) =>
  idempotencyKey ? `Order ${orderId} ${idempotencyKey}` : `Order ${orderId}`;
