import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useVisitor, VisitorHole } from "./visitor-hole";
import { LazyToaster } from "./lazy-toaster";
import { dismissAllToasts, dismissRaisedElsewhere, showToast } from "./notify";
import { StaticFlash } from "./static-flash";

// Still imported from here by the components that raise toasts (fetchers, forms, tRPC mutations).
export { dismissToast, followToNextPage, notify } from "./notify";

const MODAL_OPEN = "data-scroll-locked";

/**
 * Toasts for the whole app. A flash (set by a server action, read by the root loader) shows once:
 * - with JavaScript, through sonner (errors in the destructive style);
 * - before hydration or without JavaScript, as static HTML that fades out after five seconds in
 *   pure CSS (see `.flash-toast` in app.css). Once hydrated the static copy is not rendered, so
 *   the message never shows twice.
 *
 * Both sit at the bottom of the screen. At the top they lay over the sticky header: the toast hid
 * the navigation, and reaching for a link hovered the toast, which pauses its timer, so it stayed
 * for as long as the pointer was there. Below the header is no better on a phone, where the open
 * menu hangs from the header. Hovering or focusing a toast still pauses it, so it can be read.
 */
export function Toasts() {
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  useEffect(() => dismissRaisedElsewhere(pathname), [pathname]);
  // Radix's modal dialogs lock the page's scroll with this attribute on <body> while open.
  useEffect(() => {
    const observer = new MutationObserver(() => {
      if (document.body.hasAttribute(MODAL_OPEN)) dismissAllToasts();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: [MODAL_OPEN] });
    return () => observer.disconnect();
  }, []);
  // The visitor's own flash: a hole in a cached page (decision 0014).
  const flash = useVisitor().toast;
  const flashId = flash?.id;

  useEffect(() => {
    if (!flash) return;
    showToast(flash.kind, flash.title, { id: flash.id, description: flash.description });
    // Keyed on the flash id: a new flash shows once, a re-render of the same one does nothing
    // (and the id makes sonner replace rather than duplicate it under StrictMode).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flashId]);

  return (
    <>
      <LazyToaster />
      <VisitorHole name="visitor">{(visitor) => (!hydrated && visitor.toast ? <StaticFlash flash={visitor.toast} /> : null)}</VisitorHole>
    </>
  );
}
