import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { SubscriberManager } from "~/components/admin/subscribers/subscriber-manager";
import { getAppContext } from "../../server/boot";
import { pageFromSearch } from "../../server/contracts/admin-subscribers";
import { requireAdminPage } from "../../server/http/auth";
import { listSubscribers } from "../../server/services/admin-subscribers";

export const meta: MetaFunction = () => [{ title: "Email Subscribers · Admin Dashboard" }];

/** The Email tab: the same subscriber component (spec §2), opened on the composer; the list is paged (`?page=`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const page = pageFromSearch(new URL(request.url).searchParams.get("page"));
  return { list: await listSubscribers(ctx, { page }), loadedAt: Date.now() };
}

// Paging only changes the query string; once hydrated, react-query fetches the page itself.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search ? false : defaultShouldRevalidate;

export default function AdminEmailTab() {
  const { list, loadedAt } = useLoaderData<typeof loader>();
  return <SubscriberManager heading="Email Subscribers" initialTab="compose" initialList={list} loadedAt={loadedAt} />;
}
