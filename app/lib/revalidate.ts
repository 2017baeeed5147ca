import type { ShouldRevalidateFunction, ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * For admin tabs whose inner tabs or pages live in the query string: once hydrated, react-query
 * owns the data, so a change of query string alone does not rerun the route's loader.
 */
export const skipQueryOnlyRevalidation: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search ? false : defaultShouldRevalidate;

/**
 * After the checkout's Process Order (its fetcher posts to /checkout): a refusal that may mean the
 * bag changed (400, 409: sold out meanwhile, emptied in another tab) reloads what the page shows;
 * a held order or another refusal changes nothing a loader reads, so nothing is asked again (a
 * request less per buyer on drop day). Undefined after any other submission.
 */
export const afterProcessOrder = ({ formAction, actionStatus }: ShouldRevalidateFunctionArgs): boolean | undefined =>
  formAction === "/checkout" ? actionStatus === 400 || actionStatus === 409 : undefined;
