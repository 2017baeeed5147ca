import type { RequestHead } from "#server/http/requests/request-head";
import type { PublicUser } from "#server/contracts/auth";
import type { AppContext } from "#server/context";
import { Unauthenticated } from "#server/errors";
import { authenticate, requireAdminApi } from "#server/http/auth";
import type { Guard } from "./route";

/**
 * The one place a route's guard is enforced: it throws the 401 or 403 before the handler runs.
 * A public door reads no session (a catalogue read costs no session lookup); one that cares who
 * is calling asks `authenticate` itself.
 */
export async function enforceGuard(guard: Guard, ctx: AppContext, request: RequestHead): Promise<PublicUser | null> {
  if (guard === "public") return null;
  if (guard === "admin") return requireAdminApi(ctx, request);
  const { user } = await authenticate(ctx, request);
  if (!user) throw new Unauthenticated("Please sign in to continue.");
  return user;
}

const STRENGTH: Record<Guard, number> = { public: 0, user: 1, admin: 2 };

/**
 * The guard in front of a path's 405: the weakest of its methods' guards, so a caller allowed
 * one method may learn the others, and an admin-only path tells nobody else which methods exist.
 */
export function weakestGuard(guards: Guard[]): Guard {
  return guards.reduce((weakest, guard) => (STRENGTH[guard] < STRENGTH[weakest] ? guard : weakest), "admin");
}
