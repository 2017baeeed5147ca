import type { AdminProduct } from "#server/contracts/admin-products";

/**
 * The sizes editor's state and what it saves (issue 23, decisions 0045 and 0050), kept apart from
 * the screen so the rules are tested without a browser. Rows carry a stable key (a rename or a
 * move keeps its grid cells) and `was`, the stock the form loaded: sent with each size, the
 * server refuses a new number for a size that sold meanwhile, and keeps sales for one left alone.
 */

export interface SizeRow {
  key: string;
  label: string;
  /** As typed. */
  inventory: string;
  /** The stock loaded from the server; null for a size added in this form. */
  was: number | null;
}

export interface GridCell {
  inventory: string;
  was: number | null;
}

export interface SizeStock {
  rows: SizeRow[];
  perColor: boolean;
  /** Stock per colour: `${row key}\u0000${colour}` → cell. Without sizes the one row's key is ONE. */
  grid: Record<string, GridCell>;
}

/** The grid's row of a product without sizes. */
export const ONE = "one-size";

export const SIZE_PRESETS = [
  { name: "XS–XXL", labels: ["XS", "S", "M", "L", "XL", "XXL"] },
  { name: "28–40 even waist sizes", labels: ["28", "30", "32", "34", "36", "38", "40"] },
  { name: "One Size", labels: [] },
] as const;

let next = 0;
export const newKey = () => `size-${++next}`;

export const cellKey = (rowKey: string, color: string) => `${rowKey}\u0000${color}`;

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

export function stockStateOf(product: AdminProduct | null): SizeStock {
  const rows = (product?.sizes ?? []).map((size) => ({
    key: newKey(),
    label: size.label,
    inventory: String(size.inventory),
    was: size.inventory,
  }));
  const grid: Record<string, GridCell> = {};
  for (const variant of product?.variants ?? []) {
    const row = variant.size === null ? ONE : rows.find((r) => r.label === variant.size)?.key;
    if (row) grid[cellKey(row, variant.color)] = { inventory: String(variant.inventory), was: variant.inventory };
  }
  return { rows, perColor: product?.stockPerColor ?? false, grid };
}

/** The rows the grid shows: the sizes, or the one implicit size. */
export const gridRows = (state: SizeStock) => (state.rows.length > 0 ? state.rows : [{ key: ONE, label: "One Size" }]);

export function cellOf(state: SizeStock, rowKey: string, color: string): GridCell {
  return state.grid[cellKey(rowKey, color)] ?? { inventory: "0", was: null };
}

/** A size's stock as shown: typed, or with stock per colour the sum of its colours. */
export function rowStock(state: SizeStock, row: Pick<SizeRow, "key" | "inventory">, colors: readonly string[]): number {
  if (state.perColor && colors.length > 0) return colors.reduce((sum, c) => sum + (whole(cellOf(state, row.key, c).inventory) || 0), 0);
  return whole(row.inventory) || 0;
}

/** The product's inventory as the editor stands: the sum over its sizes (or its colours). */
export function totalStock(state: SizeStock, colors: readonly string[]): number | null {
  if (state.perColor && colors.length > 0)
    return gridRows(state).reduce((sum, row) => sum + rowStock(state, { inventory: "0", ...row }, colors), 0);
  if (state.rows.length === 0) return null;
  return state.rows.reduce((sum, row) => sum + (whole(row.inventory) || 0), 0);
}

/** A preset replaces the list; a size it keeps (same label, any case) keeps its stock and its cells. */
export function applyPreset(state: SizeStock, labels: readonly string[]): SizeStock {
  const rows = labels.map(
    (label) =>
      state.rows.find((row) => row.label.trim().toLowerCase() === label.toLowerCase()) ?? {
        key: newKey(),
        label,
        inventory: "0",
        was: null,
      },
  );
  return { ...state, rows };
}

/**
 * Turning stock per colour on: each size's stock (without sizes, the product's: `oneSizeStock`)
 * starts on the first colour, as the server does
 * for a switch without a grid, so the totals do not move until the admin spreads them.
 */
export function withPerColor(state: SizeStock, on: boolean, colors: readonly string[], oneSizeStock = 0): SizeStock {
  if (!on || colors.length === 0) return { ...state, perColor: on };
  const grid = { ...state.grid };
  for (const row of gridRows(state)) {
    const known = colors.some((c) => grid[cellKey(row.key, c)] !== undefined);
    if (known) continue;
    const stock = row.key === ONE ? oneSizeStock : whole((row as SizeRow).inventory) || 0;
    grid[cellKey(row.key, colors[0]!)] = { inventory: String(stock), was: null };
  }
  return { ...state, perColor: true, grid };
}

/** What the editor saves: the whole list of sizes, the mode, and with stock per colour the grid. */
export interface StockPatch {
  sizes: { label: string; inventory: number; was?: number }[];
  stockPerColor: boolean;
  variants?: { size: string | null; color: string; inventory: number; was?: number }[];
}

/** Numbers as typed go as they are (a blank or a fraction is the server's 400 to explain). */
const asNumber = (text: string) => (text.trim() === "" ? NaN : Number(text.trim()));

export function toStockPatch(state: SizeStock, colors: readonly string[]): StockPatch {
  const perColor = state.perColor && colors.length > 0;
  const sizes = state.rows.map((row) => ({
    label: row.label.trim(),
    // With stock per colour a size's stock is its colours' sum: the server ignores it then.
    inventory: perColor ? rowStock(state, row, colors) : asNumber(row.inventory),
    ...(row.was === null || perColor ? {} : { was: row.was }),
  }));
  if (!perColor) return { sizes, stockPerColor: state.perColor };
  const variants = gridRows(state).flatMap((row) =>
    colors.map((color) => {
      const cell = cellOf(state, row.key, color);
      return {
        size: row.key === ONE ? null : row.label.trim(),
        color,
        inventory: asNumber(cell.inventory),
        ...(cell.was === null ? {} : { was: cell.was }),
      };
    }),
  );
  return { sizes, stockPerColor: true, variants };
}

/** True when the product has, or is given, sizes or stock per colour: then the editor's stock is saved. */
export function touchesSizes(product: AdminProduct | null, state: SizeStock): boolean {
  return (product?.sizes.length ?? 0) > 0 || (product?.stockPerColor ?? false) || state.rows.length > 0 || state.perColor;
}

/**
 * After a refused save: each size (and cell) whose stock moved on the server since the form
 * loaded shows the stock as it is now, and is checked against that next time; what the admin typed
 * elsewhere stays.
 */
export function refreshedFrom(state: SizeStock, fresh: AdminProduct): SizeStock {
  const rows = state.rows.map((row) => {
    if (row.was === null) return row;
    const now = fresh.sizes.find((s) => s.label === row.label)?.inventory;
    return now === undefined || now === row.was ? row : { ...row, inventory: String(now), was: now };
  });
  const grid = { ...state.grid };
  for (const variant of fresh.variants ?? []) {
    const row = variant.size === null ? ONE : rows.find((r) => r.label === variant.size)?.key;
    if (!row) continue;
    const key = cellKey(row, variant.color);
    const cell = grid[key];
    if (cell && cell.was !== null && cell.was !== variant.inventory)
      grid[key] = { inventory: String(variant.inventory), was: variant.inventory };
  }
  return { ...state, rows, grid };
}
