import { useEffect } from "react";
import { notify } from "#app/components/toasts";
import type { Notice } from "#server/contracts/layout";

export type { Notice };

/**
 * Shows an action's notice as a toast once per response. Actions that do not redirect return
 * their notice (rendered inline for no-JS visitors) instead of flashing it.
 */
export function useNoticeToast(notice: Notice | null | undefined, key: unknown) {
  useEffect(() => {
    if (!notice) return;
    notify[notice.kind](notice.title, notice.description);
    // Keyed on the response, not the notice's text: the same message twice shows twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
