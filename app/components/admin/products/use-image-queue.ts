import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AdminProductImage } from "#server/contracts/admin-products";
import { notify } from "#app/components/toasts";
import { useTRPC } from "#app/lib/trpc";
import { NOTICES } from "./messages";
import { clientImageProblem, uploadWithProgress } from "./upload";

export interface QueuedImage {
  key: string;
  file: File;
  preview: string;
  status: "waiting" | "uploading" | "done" | "failed";
  progress: number;
  error?: string;
}

export type ImageQueue = ReturnType<typeof useImageQueue>;

/**
 * Images chosen for a product, uploaded one after another (so they keep the order they were picked
 * in, and the first becomes primary) with a progress bar each. Lives on the page, not in the form:
 * images picked before a product exists are uploaded once it has been created.
 */
export function useImageQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<QueuedImage[]>([]);
  const [running, setRunning] = useState(false);
  // Whose images these are: "new" (a product not created yet) or a product id.
  const [owner, setOwner] = useState<number | "new">("new");
  const latest = useRef(items);
  latest.current = items;

  // Previews are object URLs: give their memory back when the page goes.
  useEffect(() => () => latest.current.forEach((item) => URL.revokeObjectURL(item.preview)), []);

  const patch = (key: string, change: Partial<QueuedImage>) =>
    setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const add = useCallback((files: File[]) => {
    const accepted: QueuedImage[] = [];
    for (const file of files) {
      const problem = clientImageProblem(file);
      if (problem) {
        notify.error(NOTICES.imageAddFailed, `${file.name}: ${problem}`);
        continue;
      }
      accepted.push({ key: crypto.randomUUID(), file, preview: URL.createObjectURL(file), status: "waiting", progress: 0 });
    }
    setItems((all) => [...all, ...accepted]);
  }, []);

  const remove = useCallback((key: string) => {
    setItems((all) => {
      const gone = all.find((item) => item.key === key);
      if (gone) URL.revokeObjectURL(gone.preview);
      return all.filter((item) => item.key !== key);
    });
  }, []);

  /** Empties the queue for another product (the editor calls it when its product changes). */
  const reset = useCallback((next: number | "new") => {
    setOwner(next);
    setItems((all) => {
      all.forEach((item) => URL.revokeObjectURL(item.preview));
      return [];
    });
  }, []);

  /** A product was just created: the images picked for "new" are now its own. */
  const handOver = useCallback((productId: number) => setOwner(productId), []);

  /** Uploads every waiting (or failed) image to the product, then says how it went. */
  const uploadAll = useCallback(
    async (productId: number) => {
      const pending = latest.current.filter((item) => item.status !== "done" && item.status !== "uploading");
      if (pending.length === 0) {
        notify.error(NOTICES.noFiles, "Choose one or more JPG, PNG or GIF images first.");
        return;
      }
      setRunning(true);
      let failed = 0;
      let lastError: string | undefined;
      for (const item of pending) {
        patch(item.key, { status: "uploading", progress: 0, error: undefined });
        try {
          await uploadWithProgress<AdminProductImage>(`/api/admin/products/${productId}/images`, item.file, {}, (progress) =>
            patch(item.key, { progress }),
          );
          patch(item.key, { status: "done", progress: 1 });
        } catch (error) {
          failed += 1;
          lastError = error instanceof Error ? error.message : undefined;
          patch(item.key, { status: "failed", error: lastError });
        }
      }
      setRunning(false);
      const saved = trpc.admin.products.images.list.queryKey({ id: productId });
      // The list's first fetch (the editor opening as the batch began) may still be on its way with
      // an answer from before these uploads: invalidating alone would wait for that fetch and show
      // it (TanStack Query joins a fetch of a query that has no data yet). Cancelled, it is fetched anew.
      await queryClient.cancelQueries({ queryKey: saved });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: saved }),
        queryClient.invalidateQueries({ queryKey: trpc.admin.products.list.queryKey() }),
      ]);
      if (pending.length === 1) {
        if (failed) notify.error(NOTICES.imageAddFailed, lastError);
        else notify.success(NOTICES.imageAdded);
      } else if (failed) {
        notify.error(NOTICES.batchFailed, NOTICES.batchFailedDescription);
      } else {
        notify.success(NOTICES.batchComplete, `${pending.length} images uploaded.`);
      }
      // Uploaded ones now show among the product's images; failed ones stay, to retry or remove.
      setItems((all) => {
        all.filter((item) => item.status === "done").forEach((item) => URL.revokeObjectURL(item.preview));
        return all.filter((item) => item.status !== "done");
      });
    },
    [queryClient, trpc],
  );

  return { items, running, owner, add, remove, reset, handOver, uploadAll };
}
