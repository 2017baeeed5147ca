import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names (strings, arrays, `condition && "class"`). It does not resolve conflicting
 * Tailwind classes (tailwind-merge did, for 8 kB on every page: decision 0029): a component's
 * base classes never restate what a variant or a caller's `className` sets; where a caller must
 * replace one, the component leaves it out for it (a Button's size={null}, a Spinner's size).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
