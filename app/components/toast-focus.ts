import { useEffect, useRef, type FocusEvent, type KeyboardEvent } from "react";

const TOASTER = "[data-sonner-toaster]";
const TABBABLE = "[data-sonner-toast], [data-sonner-toast] button";

/**
 * Keyboard focus around the toasts. sonner (2.0.8) notes where focus came from when it enters the
 * list and sends it back there whenever it leaves (made for its alt+T hotkey). But each toast is
 * also in the ordinary Tab order, after the footer: a shopper tabbing through a toast was thrown
 * back to the footer's last link, without a focus ring (a script focus inside the blur), and
 * went round footer → toast → close button → footer for as long as the toast was up. So sonner
 * never sees a focus event; this does what a keyboard user expects instead:
 * - Tab and Shift+Tab go through a toast as through any other control;
 * - alt+T (sonner's hotkey focuses the list) lands on the newest toast, and tabbing out of the
 *   toasts goes back to where the shopper was, with its ring;
 * - when the focused toast goes away (closed or timed out), focus goes back to where it came from
 *   instead of falling to the page's body.
 */
export function useToastFocus() {
  const ref = useRef<HTMLDivElement>(null);
  const origin = useRef<HTMLElement | null>(null);
  const inside = useRef(false);
  const jumped = useRef(false);

  // A focused toast that is removed takes the focus with it, without a blur event.
  useEffect(() => {
    const wrapper = ref.current;
    if (!wrapper) return;
    const observer = new MutationObserver(() => {
      keepFocusClear(wrapper);
      if (!inside.current || wrapper.contains(document.activeElement)) return;
      inside.current = false;
      jumped.current = false;
      const back = origin.current;
      origin.current = null;
      if ((document.activeElement === document.body || !document.activeElement) && back?.isConnected) back.focus({ preventScroll: true });
    });
    observer.observe(wrapper, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  return {
    ref,
    onFocusCapture(event: FocusEvent<HTMLDivElement>) {
      event.stopPropagation();
      const target = event.target as HTMLElement;
      if (!inside.current) {
        inside.current = true;
        origin.current = event.relatedTarget instanceof HTMLElement ? event.relatedTarget : null;
        jumped.current = target.matches(TOASTER);
      }
      if (target.matches(TOASTER)) target.querySelector<HTMLElement>("[data-sonner-toast]")?.focus({ preventScroll: true });
    },
    onBlurCapture(event: FocusEvent<HTMLDivElement>) {
      event.stopPropagation();
      if (event.relatedTarget && event.currentTarget.contains(event.relatedTarget)) return;
      // Focus went to another control, or out of the page (Tab past the last control). Not when
      // the window merely lost focus (the toast stays the active element), nor when the toast was
      // removed (the observer above sees to that).
      const left = event.target as HTMLElement;
      if (event.relatedTarget || (left.isConnected && document.activeElement !== left)) {
        inside.current = false;
        jumped.current = false;
        origin.current = null;
      }
    },
    onKeyDownCapture(event: KeyboardEvent<HTMLDivElement>) {
      // After alt+T, tabbing out of either end goes back where the shopper was.
      if (event.key !== "Tab" || !jumped.current || !origin.current?.isConnected) return;
      const stops = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(TABBABLE));
      const edge = event.shiftKey ? stops[0] : stops[stops.length - 1];
      if (document.activeElement !== edge) return;
      event.preventDefault();
      origin.current.focus({ preventScroll: true });
    },
  };
}

/*
 * The stylesheet's scroll-padding has the browser scroll a control it focuses clear of a toast
 * (WCAG 2.4.11), but a toast that arrives over a control already focused (the button that raised
 * it, low on a phone's screen) would hide it: the page scrolls that control clear instead, once,
 * as the toast comes in. A tap or click counts too: the shopper's next press is likely that same
 * button (issue 28: a toast lay over Complete Order).
 */
function keepFocusClear(wrapper: HTMLElement) {
  const list = wrapper.querySelector<HTMLElement>(TOASTER);
  if (!list?.querySelector("[data-sonner-toast]:not([data-removed=true])")) return;
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || focused === document.body || wrapper.contains(focused)) return;
  // Where the toast settles once it has risen: the band the stylesheet keeps clear for it.
  const band = parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom) || 0;
  const box = focused.getBoundingClientRect();
  const column = list.getBoundingClientRect();
  const onScreen = box.top < window.innerHeight && box.bottom > 0;
  const underToast = box.bottom > window.innerHeight - band && box.left < column.right && box.right > column.left;
  if (onScreen && underToast) focused.scrollIntoView({ block: "nearest" });
}
