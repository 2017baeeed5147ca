import { getAppContext } from "#server/boot";
import { requireAdminPage } from "#server/http/auth";

/** The admin layout (/admin and every tab under it): the header's name; anyone else goes to the sign-in. */
export async function adminLayoutLoader(request: Request) {
  const ctx = await getAppContext();
  const user = await requireAdminPage(ctx, request);
  return { username: user.username };
}
