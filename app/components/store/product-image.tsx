import { ImageOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "#app/lib/utils";

export interface ImageSource {
  imageUrl: string | null;
  imagePath: string | null;
  srcSet: string | null;
}

/**
 * Spec order: imageUrl, then imagePath, then a placeholder. Our own uploads carry their widths
 * in srcSet (made from imagePath); an imagePath that is itself a URL is used as one.
 */
function pick({ imageUrl, imagePath, srcSet }: ImageSource): { src: string | undefined; srcSet: string | undefined } | null {
  const pathUrl = imagePath && /^(https?:\/\/|\/)/.test(imagePath) ? imagePath : null;
  const src = imageUrl ?? pathUrl ?? undefined;
  if (!src && !srcSet) return null;
  return { src, srcSet: srcSet ?? undefined };
}

export function ProductImage({
  image,
  alt,
  sizes,
  priority = false,
  className,
}: {
  image: ImageSource;
  alt: string;
  sizes: string;
  /** Above the fold: load now and ahead of everything else. Otherwise lazy. */
  priority?: boolean;
  className?: string;
}) {
  const chosen = pick(image);
  const key = `${chosen?.src ?? ""}|${chosen?.srcSet ?? ""}`;
  const [failed, setFailed] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);

  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setFailed(key);
  }, [key]);

  if (!chosen || failed === key) return <ImagePlaceholder className={className} />;
  return (
    <img
      ref={ref}
      src={chosen.src}
      srcSet={chosen.srcSet}
      sizes={sizes}
      alt={alt}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "auto" : "async"}
      // React 18 does not know fetchPriority yet; the lowercase attribute passes through as is.
      {...{ fetchpriority: priority ? "high" : "auto" }}
      onError={() => setFailed(key)}
      // Without JavaScript a broken image cannot swap itself out: its own background then reads as
      // the placeholder, and the alt text stays invisible (it is still read out).
      className={cn(
        "size-full bg-[radial-gradient(circle_at_30%_20%,oklch(0.26_0_0),oklch(0.14_0_0))] object-cover text-transparent",
        className,
      )}
    />
  );
}

export function ImagePlaceholder({ className }: { className?: string }) {
  return (
    <div
      role="img"
      aria-label="No image available"
      data-testid="image-placeholder"
      className={cn(
        "flex size-full items-center justify-center bg-[radial-gradient(circle_at_30%_20%,oklch(0.26_0_0),oklch(0.14_0_0))] text-muted-foreground",
        className,
      )}
    >
      <ImageOff className="size-8 opacity-60" strokeWidth={1.25} aria-hidden="true" />
    </div>
  );
}
