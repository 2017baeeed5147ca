import { getAppContext } from "../boot";
import { pageFromSearch } from "../contracts/admin-subscribers";
import { listSubscribers } from "../services/admin-subscribers";
import { requireAdminPage } from "./auth";

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
