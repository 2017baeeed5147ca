import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SubscriberManager } from "~/components/admin/subscribers/subscriber-manager";
import { getAppContext } from "../../server/boot";
import { requireAdminPage } from "../../server/http/auth";
import { listSubscribers } from "../../server/services/admin-subscribers";

export const meta: MetaFunction = () => [{ title: "Email Subscribers · Admin Dashboard" }];

/** The Email tab: the same subscriber component (spec §2), opened on the composer. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { list: await listSubscribers(ctx), loadedAt: Date.now() };
}

export default function AdminEmailTab() {
  const { list, loadedAt } = useLoaderData<typeof loader>();
  return <SubscriberManager heading="Email Subscribers" initialTab="compose" initialList={list} loadedAt={loadedAt} />;
}
