import { useLayoutEffect, useRef, type FocusEvent } from "react";

/**
 * A bag line that goes (minus at one, or Remove) takes the focused button with it, and the focus
 * fell to the page's body: a keyboard shopper started again from the top. When that happens, the
 * focus goes to the line that took its place (the next one, else the new last one), on its name,
 * or, with the bag now empty, to `whenEmpty` (the empty bag's link to the store).
 */
export function useLineFocus(lineIds: readonly number[], whenEmpty: () => HTMLElement | null) {
  const list = useRef<HTMLUListElement>(null);
  const within = useRef(false);
  const before = useRef(lineIds);
  const key = lineIds.join(",");

  useLayoutEffect(() => {
    const was = before.current;
    before.current = lineIds;
    const gone = was.findIndex((id) => !lineIds.includes(id));
    if (!within.current || gone < 0) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    within.current = false;
    const names = list.current?.querySelectorAll<HTMLElement>("[data-line-focus]") ?? [];
    const next = names.length > 0 ? names[Math.min(gone, names.length - 1)] : whenEmpty();
    next?.focus();
    // Keyed on the lines, not their objects: a refetch of the same bag changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return {
    ref: list,
    onFocus: () => void (within.current = true),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      // A button disabled while its post is out, or removed with its line, blurs with no next
      // element: that still counts as inside. Focus moved elsewhere on purpose does not.
      if (event.relatedTarget && !event.currentTarget.contains(event.relatedTarget)) within.current = false;
    },
  };
}
