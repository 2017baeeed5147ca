import { getAppContext } from "#server/boot";
import { pageFromSearch } from "#server/contracts/admin-subscribers";
import { listSubscribers } from "#server/services/mail/admin-subscribers";
import { requireAdminPage } from "#server/http/auth";

/**
 * The Subscribers and Email tabs show the same list (docs/spec.md §2): one page of it (`?page=`, the
 * pager's links, so paging works without JavaScript too). Loaders run in parallel with the
 * layout's, so this one checks the admin itself.
 */
export async function subscribersPageData(request: Request) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const page = pageFromSearch(new URL(request.url).searchParams.get("page"));
  return { list: await listSubscribers(ctx, { page }), loadedAt: Date.now() };
}
