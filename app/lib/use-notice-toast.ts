import { useEffect } from "react";
import { notify } from "#app/components/toasts";
import type { Notice } from "#server/contracts/layout";

export type { Notice };

/**
 * Shows an action's notice as a toast once per response. Actions that do not redirect return
 * their notice instead of flashing it, and every page that uses this renders it inline too: so a
 * failure is not toasted as well (issue 28). The inline box is announced (role="alert") and stays
 * beside the field or button it is about, where a toast lay over the next thing to press (the
 * terms' Close on a phone, Complete Order on a desktop). Successes still get their toast.
 */
export function useNoticeToast(notice: Notice | null | undefined, key: unknown) {
  useEffect(() => {
    if (!notice || notice.kind === "error") return;
    notify[notice.kind](notice.title, notice.description);
    // Keyed on the response, not the notice's text: the same message twice shows twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
