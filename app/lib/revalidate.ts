import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * For admin tabs whose inner tabs or pages live in the query string: once hydrated, react-query
 * owns the data, so a change of query string alone does not rerun the route's loader.
 */
export const skipQueryOnlyRevalidation: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search ? false : defaultShouldRevalidate;
