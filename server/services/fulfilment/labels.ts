import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "#server/context";
import { labelsDir } from "#server/integrations/shipping/local";

/** The names the local shipping integration gives its labels: nothing else, so no path can climb out of the folder. */
const LABEL_FILE = /^\d+-[0-9a-f]{32}\.pdf$/;

/** A locally generated label's PDF, or null when there is no such label. */
export async function readLabel(ctx: AppContext, name: string) {
  if (!LABEL_FILE.test(name)) return null;
  try {
    return await fs.readFile(path.join(labelsDir(ctx), name));
  } catch {
    return null;
  }
}
