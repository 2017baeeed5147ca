import { useCallback, useEffect, useRef, useState } from "react";
import type { CartView } from "#server/contracts/cart-view";

/**
 * The bag as GET /api/cart reports it, for the dropdown. docs/spec.md §9: the cart is always fresh, so it
 * is fetched every time the dropdown opens and whenever the window regains focus. A change made
 * through a cart form hands its result in with `adopt`, and wins over any fetch still in flight.
 */
export function useLiveCart(open: boolean) {
  const [cart, setCart] = useState<CartView | null>(null);
  const [failed, setFailed] = useState(false);
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const response = await fetch("/api/cart", { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
      const body = (await response.json()) as CartView;
      if (mine !== latest.current) return;
      setCart(body);
      setFailed(false);
    } catch {
      if (mine === latest.current) setFailed(true);
    }
  }, []);

  const adopt = useCallback((next: CartView) => {
    latest.current++;
    setCart(next);
    setFailed(false);
  }, []);

  useEffect(() => {
    if (open) void reload();
  }, [open, reload]);

  useEffect(() => {
    const onFocus = () => void reload();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [reload]);

  return { cart, failed, reload, adopt };
}

export type LiveCart = ReturnType<typeof useLiveCart>;
