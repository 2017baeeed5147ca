import { choiceLabel } from "#server/contracts/sizes-view";
import type { PackingSlip } from "./types";

/** One row of the packing slip: what the packer picks, in the order's line order. */
export interface PackingSlipRow {
  quantity: string;
  name: string;
  /** "Size M · Navy"; "" for a product without sizes or colours. */
  choice: string;
}

/** The slip's rows and its total count of pieces (decision 0045: the box says which size and colour). */
export function packingSlipRows(slip: PackingSlip): { rows: PackingSlipRow[]; pieces: number } {
  return {
    rows: slip.lines.map((line) => ({ quantity: `${line.quantity} x`, name: line.name, choice: choiceLabel(line.size, line.color) })),
    pieces: slip.lines.reduce((sum, line) => sum + line.quantity, 0),
  };
}
