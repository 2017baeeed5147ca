import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
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
    async buyLabel({ orderId, to, parcel, methodKey, packingSlip, idempotencyKey = crypto.randomUUID() }) {
      const rate = localRates(to, parcel.weightLbs).find((r) => r.key === methodKey);
      if (!rate) throw new Invalid(`No ${methodKey} service to this address any more.`);
      const found = await findLocalLabel(ctx, orderId, idempotencyKey);
      if (found) return { ...found, carrier: rate.carrier, costCents: rate.costCents };
      const { file, trackingNumber } = localLabelOf(orderId, idempotencyKey);
      const pdf = await renderLabelPdf({
        orderId,
        to,
        parcel,
        carrier: rate.carrier,
        service: rate.description,
        trackingNumber,
        packingSlip,
      });
      // Written whole or not at all: a label file that exists is a label that was bought.
      const partial = path.join(labelsDir(ctx), `${file}.${crypto.randomBytes(4).toString("hex")}.tmp`);
      await writeInFolder(labelsDir(ctx), partial, pdf);
      await fs.rename(partial, path.join(labelsDir(ctx), file));
      return { labelUrl: `/api/admin/labels/${file}`, trackingNumber, carrier: rate.carrier, costCents: rate.costCents };
    },
    findLabel: ({ orderId, idempotencyKey }) => findLocalLabel(ctx, orderId, idempotencyKey),
  };
}

/** The label's file and tracking number follow from its key: the same key is the same label. */
function localLabelOf(orderId: number, idempotencyKey: string) {
  const digest = crypto.createHash("sha256").update(idempotencyKey).digest("hex");
  const file = `${orderId}-${digest.slice(0, 32)}.pdf`;
  const trackingNumber = `LOCAL${String(orderId).padStart(6, "0")}${100000 + (parseInt(digest.slice(32, 40), 16) % 900000)}`;
  return { file, trackingNumber };
}

async function findLocalLabel(ctx: AppContext, orderId: number, idempotencyKey: string) {
  const { file, trackingNumber } = localLabelOf(orderId, idempotencyKey);
  try {
    await fs.access(path.join(labelsDir(ctx), file));
  } catch {
    return null;
  }
  return { labelUrl: `/api/admin/labels/${file}`, trackingNumber };
}

/** Folders this process has made: the labels folder is made once, not before every label (issue 24). */
const madeFolders = new Set<string>();

/** Writes the file, making its folder first when this process has not, or when it went missing since. */
async function writeInFolder(folder: string, file: string, data: Uint8Array) {
  if (!madeFolders.has(folder)) {
    await fs.mkdir(folder, { recursive: true });
    madeFolders.add(folder);
  }
  try {
    await fs.writeFile(file, data);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(file, data);
  }
}
