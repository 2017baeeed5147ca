import { Link, useFetcher, useLocation } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { useEffect } from "react";
import type { CartFormData } from "#server/contracts/cart-view";
import { followToNextPage, notify } from "#app/components/toasts";

// Responses already toasted. Keyed fetchers outlive the component that used them (the /cart page
// hands over to the dropdown on navigation), and one failure must toast once, not per mount.
const toasted = new WeakSet<object>();

function useErrorToast(data: CartFormData | undefined) {
  useEffect(() => {
    if (!data?.notice || toasted.has(data)) return;
    toasted.add(data);
    const { title, description } = data.notice;
    if (!data.waitingRoomUrl) {
      notify.error(title, description);
      return;
    }
    // The page's reload after the refusal takes a gated page (the bag, the store) to the line: the
    // toast goes with the shopper and says why they are there.
    followToNextPage(notify.error(title, <JoinTheLine description={description} to={data.waitingRoomUrl} />));
  }, [data]);
}

/** The waiting room's refusal (a pass that lapsed), as Add To Bag words it: the line's message and the way back to it. */
function JoinTheLine({ description, to }: { description: string; to: string }) {
  const inLine = useLocation().pathname === to;
  return (
    <span className="flex flex-col items-start gap-1">
      <span>{description}</span>
      {inLine ? null : (
        <Link to={to} className="inline-flex min-h-11 items-center gap-1 font-semibold underline underline-offset-4">
          Join the line
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      )}
    </span>
  );
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
