import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SubscriberManager } from "~/components/admin/subscribers/subscriber-manager";
import { getAppContext } from "../../server/boot";
import { requireAdminPage } from "../../server/http/auth";
import { listSubscribers } from "../../server/services/admin-subscribers";

export const meta: MetaFunction = () => [{ title: "Subscriber Management · Admin Dashboard" }];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { list: await listSubscribers(ctx), loadedAt: Date.now() };
}

export default function AdminSubscribersTab() {
  const { list, loadedAt } = useLoaderData<typeof loader>();
  return <SubscriberManager heading="Subscriber Management" initialTab="list" initialList={list} loadedAt={loadedAt} />;
}
