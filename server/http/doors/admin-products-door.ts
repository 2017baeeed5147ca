import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { listAdminProducts } from "#server/services/catalog/admin-products";
import { requireAdminPage } from "#server/http/auth";

/**
 * /admin/products: the list, rendered on the server so the page is whole before (or without)
 * JavaScript; the editing goes through tRPC.
 */
export async function productsPageLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  // Loaders run side by side: this one guards itself rather than trust the layout's to run first.
  await requireAdminPage(ctx, request);
  return { products: await listAdminProducts(ctx) };
}
