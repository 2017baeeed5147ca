import { useActionData, useFetcher } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useNoticeToast } from "#app/lib/use-notice-toast";

function hasIntent<T extends { intent: string }>(value: unknown, intent: T["intent"]): value is T {
  return typeof value === "object" && value !== null && (value as { intent?: unknown }).intent === intent;
}

/**
 * One form of a settings page: with JavaScript it posts through its own fetcher (in place, a toast
 * for the answer); without it, it is an ordinary POST and the page's action data carries the
 * answer, picked out by intent. `inlineNotice` is the notice to print in the card when no toast
 * can show it (no JavaScript, or not hydrated yet).
 */
export function useIntentFetcher<
  T extends { intent: string; notice: { kind: "success" | "error" | "info"; title: string; description?: string } | null },
>(intent: T["intent"]) {
  const fetcher = useFetcher<T>({ key: `settings-${intent}` });
  const pageResult = useActionData<unknown>();
  const result = (fetcher.data as T | undefined) ?? (hasIntent<T>(pageResult, intent) ? pageResult : undefined);
  const pending = fetcher.state !== "idle";
  const hydrated = useHydrated();
  useNoticeToast(result?.notice, result);
  return { fetcher, result, pending, inlineNotice: hydrated || pending ? null : (result?.notice ?? null) };
}
