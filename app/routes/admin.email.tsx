import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SubscriberManager } from "#app/components/admin/subscribers/subscriber-manager";
import { skipQueryOnlyRevalidation } from "#app/lib/revalidate";
import { subscribersPageData } from "#server/http/doors/subscribers-page";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Email Subscribers", matches)];

/** The Email tab: the same subscriber component (docs/spec.md §2), opened on the composer. */
export const loader = ({ request }: LoaderFunctionArgs) => subscribersPageData(request);
export const shouldRevalidate = skipQueryOnlyRevalidation;

export default function AdminEmailTab() {
  const { list, loadedAt } = useLoaderData<typeof loader>();
  return <SubscriberManager heading="Email Subscribers" initialTab="compose" initialList={list} loadedAt={loadedAt} />;
}

export { ErrorBoundary } from "#app/components/error-pages";
