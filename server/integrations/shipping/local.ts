import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../../context";
import { Invalid } from "../../errors";
import { localRates } from "./local-rates";
import { renderLabelPdf } from "./label-pdf";
import { methodKeyOf, type ShippingProvider } from "./types";

/** Rates from the local table; labels as PDFs written under DATA_DIR/uploads/labels. */
export function localShipping(ctx: AppContext): ShippingProvider {
  return {
    mode: "local",
    async quote(to, parcel) {
      return localRates({ country: to.country, state: to.state, zipCode: to.zipCode }, parcel.weightLbs);
    },
    async buyLabel({ orderId, to, parcel, methodKey }) {
      const rate = localRates(to, parcel.weightLbs).find((r) => methodKeyOf(r) === methodKey);
      if (!rate) throw new Invalid(`No ${methodKey} service to this address any more.`);
      const trackingNumber = `LOCAL${String(orderId).padStart(6, "0")}${crypto.randomInt(100000, 999999)}`;
      const pdf = await renderLabelPdf({ orderId, to, parcel, carrier: rate.carrier, service: rate.description, trackingNumber });
      // An unguessable name: the label carries the customer's address.
      const file = `labels/${orderId}-${crypto.randomBytes(16).toString("hex")}.pdf`;
      await fs.mkdir(path.join(ctx.config.uploadsDir, "labels"), { recursive: true });
      await fs.writeFile(path.join(ctx.config.uploadsDir, file), pdf);
      return { labelUrl: `/uploads/${file}`, trackingNumber, carrier: rate.carrier, costCents: rate.costCents };
    },
  };
}
