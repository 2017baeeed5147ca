import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import type { CartFormData } from "#server/contracts/cart-view";
import { notify } from "#app/components/toasts";

// Responses already toasted. Keyed fetchers outlive the component that used them (the /cart page
// hands over to the dropdown on navigation), and one failure must toast once, not per mount.
const toasted = new WeakSet<object>();

function useErrorToast(data: CartFormData | undefined) {
  useEffect(() => {
    if (!data?.notice || toasted.has(data)) return;
    toasted.add(data);
    notify.error(data.notice.title, data.notice.description);
  }, [data]);
}

/**
 * The two fetchers every cart control posts through, shared by key between the dropdown and the
 * /cart page: one for plus/minus, one for remove, so each kind is disabled while its own request
 * is in flight (docs/spec.md §4).
 */
export function useCartFetchers() {
  const update = useFetcher<CartFormData>({ key: "cart-update" });
  const remove = useFetcher<CartFormData>({ key: "cart-remove" });
  useErrorToast(update.data);
  useErrorToast(remove.data);
  return { update, remove };
}

export type CartFetchers = ReturnType<typeof useCartFetchers>;
