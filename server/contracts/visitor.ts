import type { FlashToast } from "./layout";

/**
 * The only per-visitor parts of a public page: what the header and the toasts show. Served in the
 * page cache's holes (decision 0014) and by the root loader on pages that are never cached.
 */
export interface Visitor {
  cartCount: number;
  user: { username: string; isAdmin: boolean } | null;
  toast: FlashToast | null;
}

export const NOBODY: Visitor = { cartCount: 0, user: null, toast: null };
