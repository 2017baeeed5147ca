import { Link, useNavigate } from "@remix-run/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useEffect, useState } from "react";
import type { AdminProduct } from "#server/contracts/admin-products";
import { formatStoreDay } from "#server/contracts/store-time";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { ConfirmDialog } from "./confirm-dialog";
import { NOTICES, reasonOf } from "./messages";
import { ProductForm } from "./product-form";
import type { ImageQueue } from "./use-image-queue";

/** The Add/Edit Product tab: a heading for the mode, the form, and deleting from here too. */
export function ProductEditor({ products, editingId, queue }: { products: AdminProduct[]; editingId: number | null; queue: ImageQueue }) {
  const product = editingId ? (products.find((p) => p.id === editingId) ?? null) : null;
  const target = product?.id ?? "new";
  const { owner, running, reset } = queue;
  // Images picked for one product never end up on another.
  useEffect(() => {
    if (owner !== target && !running) reset(target);
  }, [owner, target, running, reset]);

  if (editingId && !product) {
    return (
      <div className="rounded-lg border border-border bg-card p-6 text-sm">
        <p>That product does not exist any more.</p>
        <Button asChild variant="outline" size="sm" className="mt-4">
          <Link to="?" preventScrollReset>
            <ArrowLeft aria-hidden /> Back to the list
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <div>
        <h3 id="product-form-heading" className="font-display text-2xl tracking-wide">
          {product ? `Edit ${product.name}` : "Add a product"}
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">
          {product
            ? `#${product.id} · created ${formatStoreDay(product.createdAt)}`
            : "Fill in the details; everything except name, description and price has a default."}
        </p>
      </div>
      <EditorBody key={target} product={product} queue={queue} />
    </div>
  );
}

function EditorBody({ product, queue }: { product: AdminProduct | null; queue: ImageQueue }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.admin.products.delete.mutationOptions({
      onSuccess: async () => {
        notify.success(NOTICES.deleted, product?.name);
        setConfirming(false);
        navigate("?", { preventScrollReset: true });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.products.list.queryKey() });
      },
      onError: (error) => notify.error(NOTICES.deleteFailed, reasonOf(error)),
    }),
  );
  return (
    <>
      <ProductForm product={product} queue={queue} onDelete={() => setConfirming(true)} />
      {product ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Delete this product?"
          description={`${product.name} and its images will be removed for good. Past orders keep their copy of its name and price.`}
          confirmLabel="Delete Product"
          pending={remove.isPending}
          onConfirm={() => remove.mutate({ id: product.id })}
        />
      ) : null}
    </>
  );
}
