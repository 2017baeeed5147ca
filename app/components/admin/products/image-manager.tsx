import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, ImagePlus, RefreshCw, Star, Trash2, Upload, X } from "lucide-react";
import { useState } from "react";
import type { AdminProductImage } from "#server/contracts/admin-products";
import { Spinner } from "#app/components/spinner";
import { ProductImage } from "#app/components/store/product-image";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";
import { Badge } from "./badges";
import { ConfirmDialog } from "./confirm-dialog";
import { formatBytes } from "./format";
import { NOTICES, reasonOf } from "./messages";
import { Progress } from "./progress";
import { ACCEPT_ATTRIBUTE } from "./upload";
import type { ImageQueue } from "./use-image-queue";

/** The product's pictures (primary, order, delete) and the images waiting to be uploaded. */
export function ImageManager({ productId, queue }: { productId: number | null; queue: ImageQueue }) {
  return (
    <div className="space-y-5">
      {productId ? <SavedImages productId={productId} /> : null}
      <ImageQueuePanel productId={productId} queue={queue} />
    </div>
  );
}

function SavedImages({ productId }: { productId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const images = useQuery(trpc.admin.products.images.list.queryOptions({ id: productId }));
  const [deleting, setDeleting] = useState<AdminProductImage | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.products.images.list.queryKey({ id: productId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.admin.products.list.queryKey() }),
    ]);
  const updated = {
    onSuccess: async () => {
      notify.success(NOTICES.imageUpdated);
      await refresh();
    },
    onError: (error: unknown) => notify.error(NOTICES.imageUpdateFailed, reasonOf(error)),
  };
  const setPrimary = useMutation(trpc.admin.products.images.setPrimary.mutationOptions(updated));
  const reorder = useMutation(trpc.admin.products.images.reorder.mutationOptions(updated));
  const remove = useMutation(
    trpc.admin.products.images.delete.mutationOptions({
      onSuccess: async () => {
        notify.success(NOTICES.imageDeleted);
        setDeleting(null);
        await refresh();
      },
      onError: (error) => notify.error(NOTICES.imageDeleteFailed, reasonOf(error)),
    }),
  );
  const busy = setPrimary.isPending || reorder.isPending || remove.isPending;

  if (images.isPending) return <Spinner className="size-6" label="Loading images" />;
  if (images.isError) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm"
      >
        {NOTICES.imagesFetchFailed}
        <Button type="button" variant="outline" size="sm" onClick={() => images.refetch()}>
          <RefreshCw aria-hidden /> Retry
        </Button>
      </div>
    );
  }
  const list = images.data.images;
  if (list.length === 0)
    return <p className="text-sm text-muted-foreground">No images yet. The first one you add becomes the primary image.</p>;

  const move = (index: number, by: -1 | 1) => {
    const ids = list.map((image) => image.id);
    [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
    reorder.mutate({ productId, imageIds: ids });
  };

  return (
    <>
      <ol className="grid grid-cols-2 gap-3" aria-label="Product images" aria-busy={busy}>
        {list.map((image, index) => (
          <li
            key={image.id}
            className={cn("overflow-hidden rounded-md border bg-background/60", image.isPrimary ? "border-amber-300/60" : "border-border")}
            data-testid="saved-image"
          >
            <div className="relative aspect-square">
              <ProductImage image={image} alt={`Image ${index + 1}`} sizes="200px" />
              <span className="absolute top-1.5 left-1.5 rounded bg-black/70 px-1.5 text-[11px] tabular-nums">{index + 1}</span>
              {image.isPrimary ? (
                <Badge tone="primary" className="absolute bottom-1.5 left-1.5 bg-black/70">
                  <Star aria-hidden className="size-3" fill="currentColor" /> Primary
                </Badge>
              ) : null}
            </div>
            <div className="flex items-center justify-between gap-1 p-1.5">
              <div className="flex">
                <IconButton
                  label={`Move image ${index + 1} up`}
                  disabled={busy || index === 0}
                  onClick={() => move(index, -1)}
                  icon={ArrowUp}
                />
                <IconButton
                  label={`Move image ${index + 1} down`}
                  disabled={busy || index === list.length - 1}
                  onClick={() => move(index, 1)}
                  icon={ArrowDown}
                />
              </div>
              <div className="flex">
                {/* Only when not already primary (docs/spec.md §4). */}
                {image.isPrimary ? null : (
                  <IconButton
                    label={`Set image ${index + 1} as primary`}
                    disabled={busy}
                    onClick={() => setPrimary.mutate({ imageId: image.id })}
                    icon={Star}
                  />
                )}
                <IconButton label={`Delete image ${index + 1}`} disabled={busy} onClick={() => setDeleting(image)} icon={Trash2} danger />
              </div>
            </div>
          </li>
        ))}
      </ol>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this image?"
        description={
          deleting?.isPrimary
            ? "It is the primary image: the next one takes its place in the store."
            : "It is removed from the product and from the server."
        }
        confirmLabel="Delete Image"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ imageId: deleting.id })}
      />
    </>
  );
}

function IconButton({
  label,
  icon: Icon,
  danger,
  ...props
}: {
  label: string;
  icon: typeof Star;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size={null}
      aria-label={label}
      title={label}
      className={cn("size-8 text-sm whitespace-nowrap", danger && "text-red-300 hover:bg-destructive/15 hover:text-red-200")}
      {...props}
    >
      <Icon aria-hidden />
    </Button>
  );
}

function ImageQueuePanel({ productId, queue }: { productId: number | null; queue: ImageQueue }) {
  const [dragging, setDragging] = useState(false);
  // The queue may still be busy with another product's images: those are not shown here.
  const mine = queue.owner === (productId ?? "new");
  const items = mine ? queue.items : [];
  const busyElsewhere = !mine && queue.running;
  const start = () => {
    if (!productId) {
      notify.error(NOTICES.error, NOTICES.needProduct);
      return;
    }
    void queue.uploadAll(productId);
  };

  return (
    <div className="space-y-3">
      <label
        htmlFor="product-images-input"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (!busyElsewhere) queue.add([...event.dataTransfer.files]);
        }}
        className={cn(
          "flex cursor-pointer flex-col items-center gap-2 rounded-md border border-dashed px-4 py-6 text-center transition-colors",
          "focus-within:ring-2 focus-within:ring-ring",
          dragging ? "border-foreground bg-foreground/5" : "border-foreground/25 hover:border-foreground/50",
        )}
      >
        <ImagePlus aria-hidden className="size-7 text-muted-foreground" strokeWidth={1.5} />
        <span className="text-sm font-medium">Choose images or drop them here</span>
        <span className="text-xs text-muted-foreground">JPG, PNG or GIF, up to 5MB each</span>
        <input
          id="product-images-input"
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="sr-only"
          disabled={busyElsewhere}
          onChange={(event) => {
            queue.add([...(event.target.files ?? [])]);
            event.target.value = "";
          }}
        />
      </label>
      {items.length > 0 ? (
        <ul className="space-y-2" aria-label="Images to upload">
          {items.map((item) => (
            <li
              key={item.key}
              className="flex items-center gap-3 rounded-md border border-border bg-background/60 p-2"
              data-testid="queued-image"
            >
              <img
                src={item.preview}
                alt=""
                className="size-12 shrink-0 rounded bg-muted object-cover"
                // A file the browser cannot draw (the server will say why) shows an empty tile, not a broken icon.
                onError={(event) => (event.currentTarget.style.visibility = "hidden")}
              />
              <div className="min-w-0 flex-1 space-y-1.5">
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span className="truncate">{item.file.name}</span>
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                    {item.status === "uploading"
                      ? `${Math.round(item.progress * 100)}%`
                      : item.status === "failed"
                        ? "Failed"
                        : formatBytes(item.file.size)}
                  </span>
                </div>
                <Progress
                  value={item.progress}
                  label={`Uploading ${item.file.name}`}
                  tone={item.status === "failed" ? "error" : item.status === "done" ? "done" : "default"}
                />
                {item.error ? <p className="text-xs text-red-300">{item.error}</p> : null}
              </div>
              <Button
                type="button"
                variant="ghost"
                size={null}
                className="size-9 text-sm whitespace-nowrap"
                aria-label={`Remove ${item.file.name}`}
                disabled={item.status === "uploading"}
                onClick={() => queue.remove(item.key)}
              >
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-muted-foreground">
          {productId
            ? "Uploaded one by one; the first image of a product becomes primary."
            : "Chosen images upload when you create the product."}
        </p>
        <Button type="button" variant="outline" size="sm" onClick={start} disabled={queue.running}>
          <Upload aria-hidden /> {queue.running ? "Uploading..." : `Upload Images${items.length ? ` (${items.length})` : ""}`}
        </Button>
      </div>
    </div>
  );
}
