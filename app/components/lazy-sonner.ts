import { useEffect, useState, type ComponentType } from "react";
import type * as SonnerModule from "sonner";

type Sonner = typeof SonnerModule;
type ToasterComponent = ComponentType<Record<string, unknown>>;

/*
 * sonner (~9 kB compressed) is loaded with the first toast, not with every page (decision 0029):
 * `loadSonner` imports it, has the mounted `useLazyToaster` render its <Toaster>, waits for that,
 * then hands sonner over to show the toast.
 */
let sonnerPromise: Promise<Sonner> | null = null;
let mountToaster: ((toaster: ToasterComponent) => void) | null = null;
let toasterMounted: (() => void) | null = null;
const mounted = new Promise<void>((resolve) => (toasterMounted = resolve));

export function loadSonner(): Promise<Sonner> {
  sonnerPromise ??= import("sonner").then(async (sonner) => {
    mountToaster?.(sonner.Toaster as ToasterComponent);
    await mounted;
    // Screen readers announce what is added to a live region that was already on screen: the
    // toaster's region (aria-live) is painted before the first toast goes into it.
    await nextFrame();
    await nextFrame();
    return sonner;
  });
  return sonnerPromise;
}

/** Runs `fn` with sonner if a toast has loaded it already; never loads it for nothing. */
export function ifSonnerLoaded(fn: (sonner: Sonner) => void): void {
  void sonnerPromise?.then(fn);
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** sonner's <Toaster> once the first toast has loaded it; null until then. */
export function useLazyToaster(): ToasterComponent | null {
  const [Toaster, setToaster] = useState<ToasterComponent | null>(null);
  useEffect(() => {
    mountToaster = (component) => setToaster(() => component);
    return () => {
      mountToaster = null;
    };
  }, []);
  useEffect(() => {
    if (Toaster) toasterMounted?.();
  }, [Toaster]);
  return Toaster;
}
