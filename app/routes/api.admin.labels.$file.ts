import fs from "node:fs/promises";
import path from "node:path";
import { requireAdminApi } from "../../server/http/auth";
import { jsonError, rest } from "../../server/http/rest";
import { labelsDir } from "../../server/integrations/shipping/local";

/** GET /api/admin/labels/{file}: a locally generated shipping label, for admins only. */
export const loader = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  const name = params.file ?? "";
  if (!/^\d+-[0-9a-f]{32}\.pdf$/.test(name)) return jsonError(404, "Label not found.");
  try {
    const pdf = await fs.readFile(path.join(labelsDir(ctx), name));
    return new Response(pdf, {
      headers: { "Content-Type": "application/pdf", "Cache-Control": "private, no-store", "Content-Disposition": `inline; filename="${name}"` },
    });
  } catch {
    return jsonError(404, "Label not found.");
  }
});
