import fs from "node:fs";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { NotFound } from "../../server/errors";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { exportFile } from "../../server/services/admin-subscribers";

/**
 * GET /api/admin/exports/{file}: an export's CSV as a download, for admins only. Only names the
 * export itself makes are accepted, so no path can reach outside DATA_DIR/exports.
 */
export const loader = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  const found = exportFile(ctx, params.file);
  const stat = found ? await fs.promises.stat(found.file).catch(() => null) : null;
  if (!found || !stat?.isFile()) throw new NotFound("This export does not exist or has expired. Export the list again.");
  const body = createReadableStreamFromReadable(fs.createReadStream(found.file));
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${found.filename}"`,
      "Content-Length": String(stat.size),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});
