import { CircleAlert, CircleCheck, Info } from "lucide-react";
import { useEffect, useState, type ComponentType } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type * as SonnerModule from "sonner";
import { useVisitor, VisitorHole } from "~/components/visitor-hole";

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
    return sonner;
  });
  return sonnerPromise;
}

let nextId = 0;
function showToast(kind: ToastKind, title: string, options: { id?: string; description?: string } = {}): string {
  const id = options.id ?? `toast-${++nextId}`;
  void loadSonner().then(({ toast }) => toast[kind](title, { ...options, id }));
  return id;
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
  return Toaster ? <Toaster visibleToasts={1} duration={5000} theme="dark" position="bottom-center" richColors closeButton /> : null;
}

export function Toasts() {
  const hydrated = useHydrated();
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
