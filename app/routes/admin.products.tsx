import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useQuery } from "@tanstack/react-query";
import { AdminSection } from "#app/components/admin/admin-section";
import { ProductEditor } from "#app/components/admin/products/product-editor";
import { ProductList } from "#app/components/admin/products/product-list";
import { useImageQueue } from "#app/components/admin/products/use-image-queue";
import { skipQueryOnlyRevalidation } from "#app/lib/revalidate";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";
import type { AdminProduct } from "#server/contracts/admin-products";
import { productsPageLoader } from "#server/http/doors/admin-products-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Product Management", matches)];

/** The list, rendered on the server so the page is whole before (or without) JavaScript. */
export const loader = (args: LoaderFunctionArgs) => productsPageLoader(args);

// Switching inner tabs only changes the query string; react-query owns the data by then.
export const shouldRevalidate = skipQueryOnlyRevalidation;

const TABS = [
  { key: "list", label: "Product List" },
  { key: "form", label: "Add/Edit Product" },
] as const;

export default function AdminProducts() {
  // Single fetch sends these plain objects as they are; Remix's Serialize type, though, mistakes an
  // object with a numeric `length` (the parcel length) for an array, so the type is restated.
  const { products: initial } = useLoaderData<typeof loader>() as unknown as { products: AdminProduct[] };
  const trpc = useTRPC();
  const products = useQuery({ ...trpc.admin.products.list.queryOptions(), initialData: initial, staleTime: 10_000 });
  const [params] = useSearchParams();
  const tab = params.get("tab") === "form" ? "form" : "list";
  const editingId = Number(params.get("id")) || null;
  // Page-level: images picked before a product exists keep uploading after it is created.
  const queue = useImageQueue();

  return (
    <AdminSection heading="Product Management">
      <nav aria-label="Product views" className="flex flex-wrap items-center justify-between gap-3">
        <ul className="inline-flex rounded-lg border border-border bg-card p-1">
          {TABS.map((t) => (
            <li key={t.key}>
              <Link
                to={t.key === "list" ? "?" : "?tab=form"}
                preventScrollReset
                aria-current={tab === t.key ? "page" : undefined}
                className={cn(
                  "inline-flex min-h-10 items-center rounded-md px-4 text-sm font-medium transition-colors",
                  tab === t.key ? "bg-foreground text-background" : "text-muted-foreground hover:text-foreground",
                )}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground" data-testid="product-count">
          {products.data.length} {products.data.length === 1 ? "product" : "products"}
        </p>
      </nav>
      <noscript>
        <p className="rounded-md border border-border bg-card p-4 text-sm text-muted-foreground">
          Editing products needs JavaScript. Without it this list is read-only.
        </p>
      </noscript>
      {tab === "list" ? <ProductList query={products} /> : <ProductEditor products={products.data} editingId={editingId} queue={queue} />}
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
