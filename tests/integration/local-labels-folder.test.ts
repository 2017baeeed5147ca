// The local carrier makes its labels folder once per process (issue 24); a folder that went
// missing since (a cleaned data disk, a restored backup) is made again, and the label still comes.
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labelsDir, localShipping } from "#server/integrations/shipping/local";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
const to = { name: "Pat Packer", street: "1 Box St", city: "Albany", state: "NY", zipCode: "12207", country: "US" };
const parcel = { weightLbs: 1, lengthIn: 12, widthIn: 9, heightIn: 2 };

async function buy(orderId: number) {
  const provider = localShipping(ctx);
  const [rate] = await provider.quote(to, parcel);
  return provider.buyLabel({ orderId, to, parcel, methodKey: rate!.key, idempotencyKey: `label-${orderId}` });
}

describe("the local labels folder", () => {
  it("is made for the first label and made again when it went missing before the next", async () => {
    const first = await buy(1);
    const fileOf = (url: string) => path.join(labelsDir(ctx), path.basename(url));
    expect((await fs.readFile(fileOf(first.labelUrl))).subarray(0, 5).toString()).toBe("%PDF-");

    await fs.rm(labelsDir(ctx), { recursive: true, force: true });
    const second = await buy(2);
    expect((await fs.readFile(fileOf(second.labelUrl))).subarray(0, 5).toString()).toBe("%PDF-");
    expect(await fs.readdir(labelsDir(ctx))).toEqual([path.basename(second.labelUrl)]);
  });
});
