import type { RequestHead } from "#server/http/requests/request-head";
import type { AppLoadContext } from "@remix-run/node";
import type { z, ZodType } from "zod";
import type { PublicUser } from "#server/contracts/auth";
import type { AppContext } from "#server/context";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Who may call a door: anyone, a signed-in user (401 otherwise), an admin (401, then 403). */
export type Guard = "public" | "user" | "admin";

type UserFor<G extends Guard> = G extends "public" ? null : PublicUser;

export interface RouteArgs<I, G extends Guard> {
  request: RequestHead;
  /** The path's `:name` segments, decoded; `*` holds a splat's rest. */
  params: Record<string, string | undefined>;
  /** What the server hands every request: the caller's address for rate limits. */
  context: AppLoadContext;
  ctx: AppContext;
  /** The body parsed with the route's `input` contract (undefined when it declares none). */
  input: I;
  user: UserFor<G>;
}

/**
 * One REST door. `handle` answers a Response when it needs full control (cookies, streams, a
 * status chosen at run time); any other value is sent as JSON with `status` and `headers`.
 */
export interface ApiRoute {
  method: Method;
  path: string;
  guard: Guard;
  input?: ZodType;
  /** The door is off in this configuration: a 404 with this message, before the body is read. */
  unavailable?: (ctx: AppContext) => string | null;
  status?: number;
  headers?: HeadersInit;
  /** A purchase: in the waiting room's window it needs a pass, else 429 (decision 0019). */
  needsPass?: boolean;
  /**
   * The answer is the caller's own behind a public door (tRPC checks its callers itself): like a
   * signed-in door's, it is sent `private, no-store` unless it says otherwise.
   */
  personal?: boolean;
  handle: (args: RouteArgs<never, Guard>) => unknown;
}

/** Declares a route with its input and user typed from its contract and guard. */
export function route<G extends Guard, S extends ZodType | undefined = undefined>(spec: {
  method: Method;
  path: string;
  guard: G;
  input?: S;
  unavailable?: (ctx: AppContext) => string | null;
  status?: number;
  headers?: HeadersInit;
  needsPass?: boolean;
  personal?: boolean;
  handle: (args: RouteArgs<S extends ZodType ? z.output<S> : undefined, G>) => unknown;
}): ApiRoute {
  return spec as unknown as ApiRoute;
}
