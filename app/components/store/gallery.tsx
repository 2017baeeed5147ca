import { Link } from "@remix-run/react";
import { useState } from "react";
import type { PublicProduct, PublicProductImage } from "#server/contracts/catalog";
import { cn } from "#app/lib/utils";
import { ProductImage } from "./product-image";

/**
 * The main picture and, when there are several, a row of thumbnails to pick from. Each thumbnail
 * is a link to ?image=<id> (the loader honours it without JavaScript); with JavaScript the
 * switch happens in place.
 */
export function Gallery({
  product,
  images,
  selectedImageId,
}: {
  product: PublicProduct;
  images: PublicProductImage[];
  selectedImageId: number | null;
}) {
  const [selectedId, setSelectedId] = useState(selectedImageId);
  const selected = images.find((image) => image.id === selectedId);
  // Spec: the fetched detail image if there is one, else the product's own.
  const main = selected ?? product;

  return (
    <div className="flex flex-col gap-3 sm:gap-4">
      <div className="relative aspect-[4/5] overflow-hidden rounded-md bg-card" data-testid="main-image">
        <ProductImage
          key={selected?.id ?? "product"}
          image={main}
          alt={product.name}
          sizes="(min-width: 1280px) 700px, (min-width: 1024px) 56vw, 100vw"
          priority
        />
      </div>
      {images.length > 1 ? (
        // Padded so the selected thumbnail's ring is not clipped by the scroller.
        <ul className="-m-1 flex gap-2 overflow-x-auto p-1 sm:gap-3" aria-label="More images">
          {images.map((image, index) => {
            const current = image.id === (selected?.id ?? null);
            return (
              <li key={image.id} className="shrink-0">
                <Link
                  to={`?image=${image.id}`}
                  replace
                  preventScrollReset
                  aria-label={`Show image ${index + 1} of ${images.length}`}
                  aria-current={current ? "true" : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    setSelectedId(image.id);
                  }}
                  className={cn(
                    "block size-20 overflow-hidden rounded-md bg-card ring-offset-2 ring-offset-background transition sm:size-24",
                    current ? "ring-2 ring-foreground" : "opacity-60 ring-1 ring-border hover:opacity-100",
                  )}
                >
                  <ProductImage image={image} alt="" sizes="96px" />
                </Link>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
