import { useLocation } from "@remix-run/react";
import { CircleAlert, CircleCheck, Info } from "lucide-react";
import { useEffect, useRef, useState, type ComponentType, type FocusEvent, type KeyboardEvent } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type * as SonnerModule from "sonner";
import { useVisitor, VisitorHole } from "./visitor-hole";

export type Flash = {
  id: string;
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
};

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
type Sonner = typeof SonnerModule;
type ToastKind = Flash["kind"];

/*
 * sonner (~9 kB compressed) is loaded with the first toast, not with every page (decision 0029):
 * `showToast` imports it, has <Toasts> mount its <Toaster>, waits for that, then shows the toast.
 */
let sonnerPromise: Promise<Sonner> | null = null;
let mountToaster: ((toaster: ComponentType<Record<string, unknown>>) => void) | null = null;
let toasterMounted: (() => void) | null = null;
const mounted = new Promise<void>((resolve) => (toasterMounted = resolve));

function loadSonner(): Promise<Sonner> {
  sonnerPromise ??= import("sonner").then(async (sonner) => {
    mountToaster?.(sonner.Toaster as ComponentType<Record<string, unknown>>);
    await mounted;
    // Screen readers announce what is added to a live region that was already on screen: the
    // toaster's region (aria-live) is painted before the first toast goes into it.
    await nextFrame();
    await nextFrame();
    return sonner;
  });
  return sonnerPromise;
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

let nextId = 0;
/** The page (pathname) each toast still up was raised on. */
const raisedOn = new Map<string, string>();

function showToast(kind: ToastKind, title: string, options: { id?: string; description?: string } = {}): string {
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
function dismissRaisedElsewhere(pathname: string) {
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

function LazyToaster() {
  const [Toaster, setToaster] = useState<ComponentType<Record<string, unknown>> | null>(null);
  useEffect(() => {
    mountToaster = (component) => setToaster(() => component);
    return () => {
      mountToaster = null;
    };
  }, []);
  useEffect(() => {
    if (Toaster) toasterMounted?.();
  }, [Toaster]);
  const focus = useToastFocus();
  return (
    <div
      onFocusCapture={focus.onFocusCapture}
      onBlurCapture={focus.onBlurCapture}
      onKeyDownCapture={focus.onKeyDownCapture}
      ref={focus.ref}
    >
      {Toaster ? (
        <Toaster
          visibleToasts={1}
          duration={5000}
          theme="dark"
          position="bottom-center"
          richColors
          closeButton
          toastOptions={{ classNames: { toast: `${FOCUS_RING} ${HIDDEN_WHEN_BEHIND}`, closeButton: FOCUS_RING } }}
        />
      ) : null}
    </div>
  );
}

/*
 * sonner's own focus ring is a 2px black shadow at 20% (invisible on the dark theme) and its
 * stylesheet, injected unlayered, sets `outline: none`, which beats the store's layered
 * `:focus-visible` outline: only an !important utility wins.
 */
const FOCUS_RING = "focus-visible:outline-2! focus-visible:outline-solid! focus-visible:outline-offset-2! focus-visible:outline-ring!";

/*
 * Only the newest toast shows (visibleToasts={1}); sonner keeps the older ones at opacity 0 yet in
 * the Tab order, so Tab could land on an invisible toast. Hidden, they are out of it (and out of
 * the accessibility tree, which announced them already).
 */
const HIDDEN_WHEN_BEHIND = "data-[visible=false]:invisible!";

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
function useToastFocus() {
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
 * (WCAG 2.4.11), but a toast that arrives over a control already focused from the keyboard (the
 * button that raised it, low on a phone's screen) would hide it: the page scrolls that control
 * clear instead, once, as the toast comes in. Pointer users' focus (no focus ring) is left alone.
 */
function keepFocusClear(wrapper: HTMLElement) {
  const list = wrapper.querySelector<HTMLElement>(TOASTER);
  if (!list?.querySelector("[data-sonner-toast]:not([data-removed=true])")) return;
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || wrapper.contains(focused) || !focused.matches(":focus-visible")) return;
  // Where the toast settles once it has risen: the band the stylesheet keeps clear for it.
  const band = parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom) || 0;
  const box = focused.getBoundingClientRect();
  const column = list.getBoundingClientRect();
  const onScreen = box.top < window.innerHeight && box.bottom > 0;
  const underToast = box.bottom > window.innerHeight - band && box.left < column.right && box.right > column.left;
  if (onScreen && underToast) focused.scrollIntoView({ block: "nearest" });
}

export function Toasts() {
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  useEffect(() => dismissRaisedElsewhere(pathname), [pathname]);
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

const ICONS = { success: CircleCheck, error: CircleAlert, info: Info } as const;

export function StaticFlash({ flash }: { flash: Flash }) {
  const Icon = ICONS[flash.kind];
  return (
    <div className="flash-toast-region">
      <div className="flash-toast" data-kind={flash.kind} data-testid="flash-toast" role={flash.kind === "error" ? "alert" : "status"}>
        <span className="flash-toast-icon" aria-hidden="true">
          <Icon className="size-5 shrink-0" fill="currentColor" stroke="var(--flash-bg)" strokeWidth={2} />
        </span>
        <div className="flash-toast-content">
          <p className="flash-toast-title">{flash.title}</p>
          {flash.description ? <p className="flash-toast-description">{flash.description}</p> : null}
        </div>
      </div>
    </div>
  );
}

/** Toasts from client code (fetchers, tRPC mutations). Errors use the destructive style. */
export const notify = {
  success(title: string, description?: string) {
    return showToast("success", title, { description });
  },
  error(title: string, description?: string) {
    return showToast("error", title, { description });
  },
  info(title: string, description?: string) {
    return showToast("info", title, { description });
  },
};
