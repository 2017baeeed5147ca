import { useHydrated } from "remix-utils/use-hydrated";
import { ENHANCED_FIELD } from "#server/contracts/cart-view";

/** Tells a cart action that a fetcher posted, so it answers with data rather than a redirect (ENHANCED_FIELD). */
export function EnhancedField() {
  return useHydrated() ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}
