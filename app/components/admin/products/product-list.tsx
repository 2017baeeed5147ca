import { Link, useLocation } from "@remix-run/react";
import { useMutation, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { Eye, EyeOff, ImageIcon, Pencil, Plus, RefreshCw, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminProduct } from "#server/contracts/admin-products";
import { formatUsd } from "#server/contracts/money";
import { formatLaunchTime, formatStoreDay } from "#server/contracts/store-time";
import { ProductImage } from "#app/components/store/product-image";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";
import { ProductStatus } from "./badges";
import { ConfirmDialog } from "./confirm-dialog";
import { NOTICES, reasonOf } from "./messages";

// Below md each row becomes a card: the header row hides and every cell names itself.
const cellBase = "px-3 py-3 align-middle max-md:items-center max-md:justify-between max-md:gap-4 max-md:px-0";
const cell = `${cellBase} max-md:flex max-md:py-1.5`;
const label =
  "max-md:before:text-xs max-md:before:font-medium max-md:before:tracking-wider max-md:before:text-muted-foreground max-md:before:uppercase max-md:before:content-[attr(data-label)]";

export function ProductList({ query }: { query: UseQueryResult<AdminProduct[], { message: string }> }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<AdminProduct | null>(null);
  // Hide and Delete only work with JavaScript: until then they are shown disabled, never silently inert.
  const hydrated = useHydrated();
  const saved = useSavedProductFocus(query.data);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.products.list.queryKey() });

  const visibility = useMutation(
    trpc.admin.products.setVisibility.mutationOptions({
      onSuccess: refresh,
      onError: (error) => notify.error(NOTICES.visibilityFailed, reasonOf(error)),
    }),
  );
  const remove = useMutation(
    trpc.admin.products.delete.mutationOptions({
      onSuccess: async () => {
        notify.success(NOTICES.deleted, deleting ? `${deleting.name} is gone, with its images.` : undefined);
        setDeleting(null);
        await refresh();
      },
      onError: (error) => notify.error(NOTICES.deleteFailed, reasonOf(error)),
    }),
  );

  if (query.isError) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm"
      >
        <p>Error loading products: {query.error.message}</p>
        <Button variant="outline" size="sm" onClick={() => query.refetch()}>
          <RefreshCw aria-hidden /> Try Again
        </Button>
      </div>
    );
  }

  const products = query.data ?? [];
  if (products.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed border-border bg-card/50 px-6 py-16 text-center">
        <ImageIcon aria-hidden className="size-10 text-muted-foreground" strokeWidth={1.25} />
        <div>
          <p className="font-medium">No products yet</p>
          <p className="mt-1 text-sm text-muted-foreground">Add the first piece of the drop: it shows in the store once it is visible.</p>
        </div>
        <Button asChild>
          <Link to="?tab=form" preventScrollReset>
            <Plus aria-hidden /> Add Product
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <>
      <div className="rounded-lg border border-border bg-card md:overflow-x-auto">
        <table className="w-full min-w-0 text-sm md:min-w-[64rem]" aria-label="Products" aria-busy={query.isFetching}>
          <thead className="border-b border-border text-left text-xs tracking-wider text-muted-foreground uppercase max-md:sr-only">
            <tr>
              {["Name", "Price", "Inventory", "Image", "Status", "Countdown", "Created On"].map((h) => (
                <th key={h} scope="col" className="px-3 py-3 font-medium">
                  {h}
                </th>
              ))}
              <th scope="col" className="px-3 py-3 text-right font-medium">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {products.map((product) => {
              const pending = visibility.isPending && visibility.variables?.id === product.id;
              return (
                <tr
                  key={product.id}
                  data-testid="product-row"
                  className="transition-colors hover:bg-foreground/[0.03] max-md:grid max-md:grid-cols-[4.5rem_1fr] max-md:gap-x-4 max-md:p-4"
                >
                  <th scope="row" className="px-3 py-3 text-left align-middle font-medium max-md:col-start-2 max-md:p-0">
                    <span className="block max-w-[14rem] truncate" title={product.name}>
                      {product.name}
                    </span>
                    {product.promoCode ? (
                      <span className="mt-0.5 block text-xs font-normal text-muted-foreground">Code {product.promoCode}</span>
                    ) : null}
                  </th>
                  <td data-label="Price" className={cn(cellBase, "tabular-nums max-md:col-start-2 max-md:block max-md:py-0.5")}>
                    {product.discountPercent > 0 ? (
                      <span className="flex flex-wrap items-baseline gap-x-1.5">
                        <span>{formatUsd(product.discountedPrice)}</span>
                        <s className="text-xs text-muted-foreground">{formatUsd(product.price)}</s>
                        <span className="text-xs text-muted-foreground">-{product.discountPercent}%</span>
                      </span>
                    ) : (
                      formatUsd(product.price)
                    )}
                  </td>
                  <td
                    data-label="Inventory"
                    className={cn(cell, label, "tabular-nums max-md:col-span-2 max-md:mt-3", product.inventory === 0 && "text-red-300")}
                  >
                    {product.sizes.length > 0 ? <SizeStock product={product} /> : product.inventory}
                  </td>
                  <td className="px-3 py-3 align-middle max-md:col-start-1 max-md:row-span-2 max-md:row-start-1 max-md:p-0">
                    <div className="relative size-14 overflow-hidden rounded-md border border-border bg-muted">
                      <ProductImage image={product} alt="" sizes="56px" />
                      {product.imageCount > 0 ? (
                        <span
                          className="absolute right-0.5 bottom-0.5 rounded bg-black/75 px-1 text-[10px] tabular-nums"
                          title={`${product.imageCount} images`}
                        >
                          {product.imageCount}
                        </span>
                      ) : null}
                    </div>
                  </td>
                  <td data-label="Status" className={cn(cell, label, "max-md:col-span-2")}>
                    <ProductStatus product={product} />
                  </td>
                  {/* May wrap at the time: the table fits 1366 px without a sideways scroll (issue 28). */}
                  <td data-label="Countdown" className={cn(cell, label, "max-md:col-span-2 text-muted-foreground md:max-w-40")}>
                    {product.isCountdownRestricted ? (
                      <span className="text-foreground">
                        {product.countdownReleaseDate ? formatLaunchTime(product.countdownReleaseDate) : "Store launch"}
                      </span>
                    ) : (
                      <span aria-label="Not restricted">—</span>
                    )}
                  </td>
                  <td data-label="Created On" className={cn(cell, label, "max-md:col-span-2 whitespace-nowrap text-muted-foreground")}>
                    {formatStoreDay(product.createdAt)}
                  </td>
                  <td className="px-3 py-3 align-middle max-md:col-span-2 max-md:mt-2 max-md:p-0">
                    <div className="flex justify-end gap-1 max-md:justify-start">
                      <Button asChild variant="ghost" size="sm" className="normal-case! tracking-normal">
                        <Link
                          ref={product.id === saved.id ? saved.ref : undefined}
                          to={`?tab=form&id=${product.id}`}
                          preventScrollReset
                          aria-label={`Edit ${product.name}`}
                        >
                          <Pencil aria-hidden /> Edit
                        </Link>
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="normal-case! tracking-normal"
                        aria-label={`${product.isVisible ? "Hide" : "Show"} ${product.name}`}
                        disabled={!hydrated}
                        // Not `disabled` while saving: a disabled button drops the keyboard focus to the page's body.
                        aria-disabled={pending || undefined}
                        onClick={() => {
                          if (!pending) visibility.mutate({ id: product.id, isVisible: !product.isVisible });
                        }}
                      >
                        {product.isVisible ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
                        {product.isVisible ? "Hide" : "Show"}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="normal-case! tracking-normal text-red-300 hover:bg-destructive/15 hover:text-red-200"
                        aria-label={`Delete ${product.name}`}
                        disabled={!hydrated}
                        onClick={() => setDeleting(product)}
                      >
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this product?"
        description={
          <>
            <strong className="text-foreground">{deleting?.name}</strong>
            {deleting?.imageCount ? ` and its ${deleting.imageCount === 1 ? "image" : `${deleting.imageCount} images`}` : ""} will be
            removed for good. Past orders keep their copy of its name and price. To take it off the store for a while, hide it instead.
          </>
        }
        confirmLabel="Delete Product"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  );
}

/**
 * The inventory of a product with sizes, opened to its stock per size (and per colour): a
 * <details>, so it opens by click, keyboard or tap, with or without JavaScript; the title shows
 * the same on hover.
 */
function SizeStock({ product }: { product: AdminProduct }) {
  const colorsOf = (size: string) => (product.variants ?? []).filter((v) => v.size === size);
  const line = (s: { label: string; inventory: number }) =>
    `${s.label}: ${s.inventory}${
      colorsOf(s.label).length > 0
        ? ` (${colorsOf(s.label)
            .map((v) => `${v.color} ${v.inventory}`)
            .join(", ")})`
        : ""
    }`;
  return (
    <details className="group max-md:text-right" data-testid="size-stock" title={product.sizes.map(line).join("\n")}>
      <summary className="cursor-pointer list-none rounded-sm underline decoration-dotted underline-offset-4 [&::-webkit-details-marker]:hidden">
        {product.inventory} <span className="text-xs text-muted-foreground">in {product.sizes.length} sizes</span>
      </summary>
      <ul className="mt-1.5 space-y-0.5 text-xs" aria-label={`Stock per size of ${product.name}`}>
        {product.sizes.map((s) => (
          <li key={s.label} className={cn(s.inventory === 0 ? "text-red-300" : "text-foreground")}>
            {line(s)}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * Back from saving a product (the editor navigates here with `state.saved`), the keyboard focus
 * goes to that product's Edit link, once: the form that had it is gone.
 */
function useSavedProductFocus(products: AdminProduct[] | undefined) {
  const location = useLocation();
  const id = (location.state as { saved?: number } | null)?.saved;
  const ref = useRef<HTMLAnchorElement>(null);
  const done = useRef<string | null>(null);
  const listed = products?.some((product) => product.id === id) ?? false;
  useEffect(() => {
    if (!listed || done.current === location.key) return;
    done.current = location.key;
    ref.current?.focus();
  }, [listed, location.key]);
  return { id, ref };
}
