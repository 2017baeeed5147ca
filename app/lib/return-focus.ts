import { useRef, type RefObject } from "react";

const FOCUSABLE =
  'button:not([disabled]), a[href], select:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * For a Radix dialog opened from state rather than from its own Trigger: Radix then has no trigger
 * to give the focus back to and drops it on the page's body. This remembers what had the focus when
 * the dialog opened and returns it there on close (Escape, Close, Cancel). When that control is gone
 * or disabled by then (a Refund button on an order just refunded), the focus goes to the first
 * control still there in its nearest surviving container: the row's, or the dialog's, next one.
 * `opener` names the control when it is known (a select changed by a picker that may not focus it).
 * Spread the result on `Dialog.Content`.
 */
export function useReturnFocus(known?: RefObject<HTMLElement | null>) {
  const opener = useRef<HTMLElement | null>(null);
  const around = useRef<HTMLElement[]>([]);
  return {
    onOpenAutoFocus: () => {
      const active = known?.current ?? document.activeElement;
      if (!(active instanceof HTMLElement) || active === document.body) return;
      opener.current = active;
      const chain: HTMLElement[] = [];
      for (let node = active.parentElement; node && node !== document.body; node = node.parentElement) chain.push(node);
      around.current = chain;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected && !target.matches(":disabled")) {
        target.focus();
        return;
      }
      const container = around.current.find((node) => node.isConnected);
      container?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    },
  };
}
