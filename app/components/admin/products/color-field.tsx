import { Check, Plus, X } from "lucide-react";
import { useState } from "react";
import { PRODUCT_MESSAGES } from "#server/contracts/admin-products";
import { COLOR_SWATCHES, swatchFor } from "#server/contracts/catalog";
import { FieldError } from "#app/components/form-messages";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { cn } from "#app/lib/utils";
import type { FieldMeta } from "#app/components/field";

const PRESETS = Object.keys(COLOR_SWATCHES);
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * availableColors: preset swatches (docs/spec.md §3) and custom names, never the same colour twice
 * (whatever its case). The chosen list posts as repeated hidden inputs.
 */
export function ColorField({
  field,
  name,
  formId,
  colors,
  onChange,
}: {
  field: FieldMeta;
  name: string;
  formId: string;
  colors: string[];
  onChange: (colors: string[]) => void;
}) {
  const [custom, setCustom] = useState("");
  const [error, setError] = useState<string | null>(null);
  const has = (color: string) => colors.some((c) => same(c, color));

  const addCustom = () => {
    const typed = custom.trim().replace(/\s+/g, " ");
    if (!typed) return;
    // "black" typed by hand is the Black preset, with its swatch.
    const color = PRESETS.find((preset) => same(preset, typed)) ?? typed;
    if (has(color)) {
      setError(PRODUCT_MESSAGES.colorTaken);
      return;
    }
    onChange([...colors, color]);
    setCustom("");
    setError(null);
  };

  return (
    <div className="space-y-4">
      {colors.map((color) => (
        <input key={color} type="hidden" name={name} value={color} form={formId} />
      ))}
      <fieldset>
        <legend className="text-sm font-medium">Presets</legend>
        <div className="mt-3 flex flex-wrap gap-2">
          {PRESETS.map((color) => {
            const chosen = has(color);
            return (
              <button
                key={color}
                type="button"
                aria-pressed={chosen}
                onClick={() => onChange(chosen ? colors.filter((c) => !same(c, color)) : [...colors, color])}
                className={cn(
                  "inline-flex h-9 items-center gap-2 rounded-full border pr-3 pl-1.5 text-sm transition-colors",
                  chosen ? "border-foreground bg-foreground/10" : "border-border hover:border-foreground/50",
                )}
              >
                <span
                  aria-hidden
                  className="flex size-6 items-center justify-center rounded-full ring-1 ring-foreground/25 ring-inset"
                  style={{ backgroundColor: swatchFor(color) }}
                >
                  {chosen ? (
                    <Check className={cn("size-3.5", ["White", "Beige"].includes(color) ? "text-black" : "text-white")} strokeWidth={3} />
                  ) : null}
                </span>
                {color}
              </button>
            );
          })}
        </div>
      </fieldset>
      <div className="space-y-2">
        <label htmlFor={`${field.id}-custom`} className="text-sm font-medium">
          Custom colour
        </label>
        <div className="flex gap-2">
          <Input
            id={`${field.id}-custom`}
            value={custom}
            maxLength={30}
            placeholder="e.g. Heather Oat"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${field.id}-custom-error` : undefined}
            onChange={(event) => {
              setCustom(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              // Enter adds the colour; it must not submit the whole product.
              if (event.key === "Enter") {
                event.preventDefault();
                addCustom();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={addCustom} aria-label="Add colour">
            <Plus aria-hidden /> Add
          </Button>
        </div>
        <FieldError id={`${field.id}-custom-error`} errors={error ? [error] : undefined} />
      </div>
      <div>
        <p className="text-sm font-medium" id={`${field.id}-chosen`}>
          Chosen ({colors.length})
        </p>
        {colors.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">No colours: the store shows none for this product.</p>
        ) : (
          <ul className="mt-2 flex flex-wrap gap-2" aria-labelledby={`${field.id}-chosen`} data-testid="chosen-colors">
            {colors.map((color) => (
              <li
                key={color}
                className="inline-flex h-9 items-center gap-2 rounded-full border border-border bg-background/60 pr-1 pl-1.5 text-sm"
              >
                <span
                  aria-hidden
                  className="size-6 rounded-full ring-1 ring-foreground/25 ring-inset"
                  style={{ backgroundColor: swatchFor(color) }}
                />
                {color}
                <button
                  type="button"
                  onClick={() => onChange(colors.filter((c) => c !== color))}
                  className="flex size-7 items-center justify-center rounded-full text-muted-foreground hover:bg-foreground/10 hover:text-foreground"
                  aria-label={`Remove ${color}`}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        <FieldError id={field.errorId} errors={field.errors} />
      </div>
    </div>
  );
}
