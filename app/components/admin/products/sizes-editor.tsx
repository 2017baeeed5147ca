import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import { useRef } from "react";
import { FieldError } from "#app/components/form-messages";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { cn } from "#app/lib/utils";
import {
  applyPreset,
  cellKey,
  cellOf,
  gridRows,
  newKey,
  rowStock,
  SIZE_PRESETS,
  totalStock,
  withPerColor,
  type SizeStock,
} from "./size-stock";

const numberProps = { type: "number", min: "0", step: "1", inputMode: "numeric" } as const;

/**
 * The product's sizes (issue 23): add, rename, reorder, remove, stock per size, three presets, and
 * with "Stock per colour" a grid of size × colour. Its state lives in the form (ProductForm saves
 * it with the rest); the server's refusals about sizes are shown here, under the list.
 */
export function SizesEditor({
  state,
  onChange,
  colors,
  error,
  oneSizeStock,
}: {
  state: SizeStock;
  onChange: (next: SizeStock) => void;
  colors: string[];
  error: string | null;
  /** The inventory field's stock: what a product without sizes carries onto its first colour. */
  oneSizeStock: number;
}) {
  const list = useRef<HTMLOListElement>(null);
  const rows = state.rows;
  const perColor = state.perColor && colors.length > 0;
  const total = totalStock(state, colors);
  const setRows = (next: SizeStock["rows"]) => onChange({ ...state, rows: next });
  const move = (from: number, to: number) => {
    const next = [...rows];
    const [row] = next.splice(from, 1);
    next.splice(to, 0, row!);
    setRows(next);
  };
  const add = () => {
    setRows([...rows, { key: newKey(), label: "", inventory: "0", was: null }]);
    // The new row's label, ready to type into.
    requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>("li:last-child input")?.focus());
  };

  return (
    <div className="space-y-4" data-testid="sizes-editor">
      <div className="flex flex-wrap gap-2" role="group" aria-label="Size presets">
        {SIZE_PRESETS.map((preset) => (
          <Button key={preset.name} type="button" variant="outline" size="sm" onClick={() => onChange(applyPreset(state, preset.labels))}>
            {preset.name}
          </Button>
        ))}
      </div>

      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="one-size-note">
          One Size: the product's inventory is its stock.
        </p>
      ) : (
        <>
          <p aria-hidden="true" className="flex gap-1.5 text-xs font-medium text-muted-foreground sm:gap-2">
            <span className="w-24 shrink-0">Size</span>
            <span className="w-24 shrink-0">Stock</span>
          </p>
          <ol ref={list} className="!mt-1.5 space-y-2" aria-label="Sizes">
            {rows.map((row, index) => {
              const name = row.label.trim() || `size ${index + 1}`;
              return (
                <li key={row.key} className="flex items-center gap-1.5 sm:gap-2" data-testid="size-row">
                  <Input
                    value={row.label}
                    maxLength={12}
                    aria-label={`Label of size ${index + 1}`}
                    placeholder="M"
                    className="w-24 shrink-0"
                    onChange={(e) => setRows(rows.map((r) => (r.key === row.key ? { ...r, label: e.target.value } : r)))}
                    onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
                  />
                  <Input
                    {...numberProps}
                    value={perColor ? String(rowStock(state, row, colors)) : row.inventory}
                    readOnly={perColor}
                    aria-label={`Stock of ${name}`}
                    title={perColor ? "The sum of its colours, in the grid below" : undefined}
                    className={cn("w-24 shrink-0 tabular-nums", perColor && "text-muted-foreground")}
                    onChange={(e) => setRows(rows.map((r) => (r.key === row.key ? { ...r, inventory: e.target.value } : r)))}
                    onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
                  />
                  <div className="ml-auto flex shrink-0 gap-0.5 sm:gap-1">
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="max-sm:size-9"
                      aria-label={`Move ${name} up`}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1)}
                    >
                      <ArrowUp aria-hidden />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="max-sm:size-9"
                      aria-label={`Move ${name} down`}
                      disabled={index === rows.length - 1}
                      onClick={() => move(index, index + 1)}
                    >
                      <ArrowDown aria-hidden />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="max-sm:size-9"
                      aria-label={`Remove ${name}`}
                      onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                    >
                      <X aria-hidden />
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}

      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button type="button" variant="outline" size="sm" onClick={add} disabled={rows.length >= 30}>
          <Plus aria-hidden /> Add size
        </Button>
        {total !== null ? (
          <p className="text-sm" data-testid="sizes-total">
            Inventory: <strong className="tabular-nums">{total}</strong>{" "}
            <span className="text-muted-foreground">(the sum of the {rows.length > 0 ? "sizes" : "colours"})</span>
          </p>
        ) : null}
      </div>

      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-emerald-500"
          checked={state.perColor}
          onChange={(e) => onChange(withPerColor(state, e.currentTarget.checked, colors, oneSizeStock))}
        />
        <span>
          <span className="block font-medium">Stock per colour</span>
          <span className="block text-xs text-muted-foreground">
            Each colour in each size sells out on its own. Off: the colours share their size's stock.
          </span>
        </span>
      </label>
      {state.perColor && colors.length === 0 ? <p className="text-sm text-amber-200">Add a colour above to fill in the grid.</p> : null}

      {perColor ? (
        <div className="overflow-x-auto">
          <table className="text-sm" data-testid="stock-grid" aria-label="Stock per size and colour">
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1 text-left text-xs font-medium text-muted-foreground">
                  Size
                </th>
                {colors.map((color) => (
                  <th key={color} scope="col" className="px-2 py-1 text-left text-xs font-medium whitespace-nowrap text-muted-foreground">
                    {color}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {gridRows(state).map((row) => (
                <tr key={row.key}>
                  <th scope="row" className="px-2 py-1 text-left font-medium whitespace-nowrap">
                    {row.label.trim() || "—"}
                  </th>
                  {colors.map((color) => {
                    const cell = cellOf(state, row.key, color);
                    return (
                      <td key={color} className="px-1 py-1">
                        <Input
                          {...numberProps}
                          value={cell.inventory}
                          aria-label={`Stock of ${color} in ${row.label.trim() || "this size"}`}
                          className="w-20 tabular-nums"
                          onChange={(e) =>
                            onChange({
                              ...state,
                              grid: { ...state.grid, [cellKey(row.key, color)]: { ...cell, inventory: e.target.value } },
                            })
                          }
                          onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <div data-testid="sizes-error">
        <FieldError id="sizes-error" errors={error ? [error] : undefined} />
      </div>
    </div>
  );
}
