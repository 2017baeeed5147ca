import { swatchFor } from "#server/contracts/catalog-view";

/** The colours a piece comes in, each a swatch with its name (docs/spec.md §3 presets, else neutral grey). */
export function ColorSwatches({ colors }: { colors: string[] }) {
  if (colors.length === 0) return null;
  return (
    <div>
      <h2 className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">
        Colours <span className="sr-only">available</span>
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2" data-testid="color-swatches">
        {colors.map((color) => (
          <li key={color} className="inline-flex h-9 items-center gap-2 rounded-full border border-border bg-card/60 pr-3.5 pl-1.5 text-sm">
            <span
              aria-hidden="true"
              className="size-6 rounded-full ring-1 ring-foreground/25 ring-inset"
              style={{ backgroundColor: swatchFor(color) }}
            />
            {color}
          </li>
        ))}
      </ul>
    </div>
  );
}
