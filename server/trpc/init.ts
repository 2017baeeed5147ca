import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { isConnectionLost } from "#db/connection-lost";
import type { PublicUser } from "#server/contracts/auth";
import { STORE_BUSY_MESSAGE } from "#server/contracts/store-busy";
import type { AppContext } from "#server/context";
import { DomainError, Invalid } from "#server/errors";
import { assertAdmin } from "#server/http/auth";
import { trpcCodeOf } from "#server/http/error-status";
import { refuseUnreadable } from "#server/http/requests/request-body";

export interface TrpcContext {
  app: AppContext;
  user: PublicUser | null;
  /** The caller's session token, so a password change can keep this session and end the others. */
  sessionToken?: string | null;
  clientIp: string;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // The database could not be reached (a restart, a failover), in a procedure or in the context:
    // a 503 that says to try again, not an internal error (decision 0041; Retry-After: api/routes/trpc.ts).
    if (isConnectionLost(cause)) {
      return {
        ...shape,
        message: STORE_BUSY_MESSAGE,
        data: { ...shape.data, code: "SERVICE_UNAVAILABLE" as const, httpStatus: 503, stack: undefined, fieldErrors: {} },
      };
    }
    return {
      ...shape,
      data: { ...shape.data, fieldErrors: cause instanceof DomainError ? cause.fieldErrors : {} },
    };
  },
});

/**
 * Domain errors thrown by services become TRPCErrors with the same readable message; an input the
 * contract refused becomes Invalid first, so its message and field errors read as REST's do.
 */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const failure = result.error.cause;
  const cause = failure instanceof ZodError ? Invalid.fromZod(failure) : failure;
  if (cause instanceof DomainError) throw new TRPCError({ code: trpcCodeOf(cause), message: cause.message, cause });
  return result;
});

/** Text that is not valid Unicode (a lone surrogate), or an input nested past MAX_BODY_DEPTH, is refused before any contract sees it (decision 0040). */
const wellFormedText = t.middleware(async ({ getRawInput, next }) => {
  // An input tRPC cannot read (`?input=undefined` for a procedure that takes none) is the
  // procedure's own business: one with an input refuses it there, one without never reads it.
  const raw = await getRawInput().catch(() => undefined);
  refuseUnreadable(raw);
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(domainErrors).use(wellFormedText);

// The guard's Unauthenticated and Forbidden become UNAUTHORIZED and FORBIDDEN in domainErrors.
export const adminProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, user: assertAdmin(ctx.user) } }));
