import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../../context";
import { Invalid } from "../../errors";
import { localRates } from "./local-rates";
import { renderLabelPdf } from "./label-pdf";
import type { ShippingProvider } from "./types";

/**
 * Rates from the local table; labels as PDFs under DATA_DIR/labels, outside the public uploads:
 * a label carries the customer's address, so only admins may fetch it (api.admin.labels.$file).
 */
export const labelsDir = (ctx: AppContext) => path.join(ctx.config.dataDir, "labels");

export function localShipping(ctx: AppContext): ShippingProvider {
  return {
    mode: "local",
    async quote(to, parcel) {
      return localRates({ country: to.country, state: to.state, zipCode: to.zipCode }, parcel.weightLbs);
    },
    async buyLabel({ orderId, to, parcel, methodKey }) {
      const rate = localRates(to, parcel.weightLbs).find((r) => r.key === methodKey);
      if (!rate) throw new Invalid(`No ${methodKey} service to this address any more.`);
      const trackingNumber = `LOCAL${String(orderId).padStart(6, "0")}${crypto.randomInt(100000, 999999)}`;
      const pdf = await renderLabelPdf({ orderId, to, parcel, carrier: rate.carrier, service: rate.description, trackingNumber });
      const file = `${orderId}-${crypto.randomBytes(16).toString("hex")}.pdf`;
      await fs.mkdir(labelsDir(ctx), { recursive: true });
      await fs.writeFile(path.join(labelsDir(ctx), file), pdf);
      return { labelUrl: `/api/admin/labels/${file}`, trackingNumber, carrier: rate.carrier, costCents: rate.costCents };
    },
  };
}
