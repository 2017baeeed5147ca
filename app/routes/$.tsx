import { data, type MetaFunction } from "@remix-run/node";
import { NotFoundPage, notFoundMeta } from "#app/components/error-pages";

/** Every path no other route matches answers HTTP 404 with the not-found page. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => notFoundMeta(matches);

export default function NotFoundRoute() {
  return <NotFoundPage />;
}

export { ErrorBoundary } from "#app/components/error-pages";
