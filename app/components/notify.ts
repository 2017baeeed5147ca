import type { ReactNode } from "react";
import type { ToastKind } from "#server/contracts/layout";
import { ifSonnerLoaded, loadSonner } from "./lazy-sonner";

let nextId = 0;
/** The page (pathname) each toast still up was raised on. */
const raisedOn = new Map<string, string>();

export function showToast(
  kind: ToastKind,
  title: string,
  options: { id?: string; description?: ReactNode; duration?: number } = {},
): string {
  const id = options.id ?? `toast-${++nextId}`;
  raisedOn.set(id, window.location.pathname);
  void loadSonner().then(({ toast }) => toast[kind](title, { ...options, id }));
  return id;
}

/*
 * A toast speaks of the page it was raised on: "Added to Bag" over the bag or the checkout is old
 * news, and it lay over the checkout's controls. Moving to another page closes it. A flash from a
 * redirect is raised once the new page is there, so it stays; so does one the page lets follow
 * the shopper to where it sends them (`followToNextPage`).
 */
export function dismissRaisedElsewhere(pathname: string) {
  for (const [id, page] of raisedOn) {
    if (page === pathname) continue;
    raisedOn.delete(id);
    dismissToast(id);
  }
}

/** Keeps a toast up when the page itself moves on (payment done: "Payment Successful!" goes home too). */
export function followToNextPage(id: string) {
  raisedOn.delete(id);
}

/** Closes a toast `notify` opened (by the id it returned). */
export function dismissToast(id: string) {
  void loadSonner().then(({ toast }) => toast.dismiss(id));
}

/**
 * A modal dialog opening closes the toasts already up: they speak of the page behind it and lay
 * over the dialog's own buttons (the sign-up's toast over the terms' Close on a phone). A toast
 * the dialog raises itself comes after, and shows.
 */
export function dismissAllToasts() {
  raisedOn.clear();
  ifSonnerLoaded(({ toast }) => toast.dismiss());
}

/** Toasts from client code (fetchers, tRPC mutations). Errors use the destructive style. */
export const notify = {
  success(title: string, description?: ReactNode, options: { id?: string; duration?: number } = {}) {
    return showToast("success", title, { ...options, description });
  },
  error(title: string, description?: ReactNode) {
    return showToast("error", title, { description });
  },
  info(title: string, description?: string) {
    return showToast("info", title, { description });
  },
};
