import { ImageUp, Upload } from "lucide-react";
import { useRef, useState } from "react";
import type { UploadedProductImage } from "#server/contracts/admin-products";
import { ProductImage } from "#app/components/store/product-image";
import { notify } from "#app/components/toasts";
import { Button } from "#app/components/ui/button";
import { NOTICES, reasonOf } from "./messages";
import { Progress } from "./progress";
import { ACCEPT_ATTRIBUTE, clientImageProblem, uploadWithProgress } from "./upload";

/**
 * The product's own picture (imageUrl, then imagePath: the storefront's fallback order). An upload
 * goes to /api/admin/upload-product-image; its URL fills imageUrl and, as the server says
 * (clearImagePath), the now stale imagePath is emptied. Saved with the product.
 */
export function ProductImageUpload({ imageUrl, onUploaded }: { imageUrl: string; onUploaded: (uploaded: UploadedProductImage) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const upload = async () => {
    if (!file) {
      notify.error(NOTICES.noFile, "Choose a JPG, PNG or GIF image to upload.");
      return;
    }
    const problem = clientImageProblem(file);
    if (problem) {
      notify.error(NOTICES.imageUploadFailed, problem);
      return;
    }
    setProgress(0);
    try {
      const uploaded = await uploadWithProgress<UploadedProductImage>("/api/admin/upload-product-image", file, {}, setProgress);
      onUploaded(uploaded);
      notify.success(NOTICES.imageUploaded, "Save the product to use it.");
      setFile(null);
      if (input.current) input.current.value = "";
    } catch (error) {
      notify.error(NOTICES.imageUploadFailed, reasonOf(error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="space-y-3">
      <div className="flex items-center gap-4">
        <div className="size-20 shrink-0 overflow-hidden rounded-md border border-border bg-muted">
          <ProductImage key={imageUrl} image={{ imageUrl: imageUrl || null, imagePath: null, srcSet: null }} alt="" sizes="80px" />
        </div>
        <div className="min-w-0">
          <p className="text-sm font-medium">Upload a picture</p>
          <p className="mt-1 text-xs text-muted-foreground">
            JPG, PNG or GIF, up to 5MB. Stored as WebP in three widths, metadata removed.
          </p>
        </div>
      </div>
      <div className="flex items-center gap-2">
        <label
          htmlFor="product-image-file"
          className="inline-flex h-9 min-w-0 flex-1 cursor-pointer items-center gap-2 rounded-md border border-input bg-background/60 px-3 text-sm focus-within:ring-2 focus-within:ring-ring hover:border-foreground/40"
        >
          <ImageUp aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          <span className={file ? "truncate" : "truncate text-muted-foreground"}>{file ? file.name : "Choose an image…"}</span>
          <input
            ref={input}
            id="product-image-file"
            type="file"
            accept={ACCEPT_ATTRIBUTE}
            className="sr-only"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </label>
        <Button type="button" variant="outline" size="sm" onClick={upload} disabled={progress !== null}>
          <Upload aria-hidden /> {progress !== null ? "Uploading..." : "Upload"}
        </Button>
      </div>
      {progress !== null ? <Progress value={progress} label="Uploading the picture" /> : null}
    </div>
  );
}
