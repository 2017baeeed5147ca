/**
 * The most procedures one request to /api/trpc may name (`/api/trpc/a,b,c?batch=1`). The admin's
 * client splits a larger batch into several requests (its link's `maxItems`); the server refuses
 * one past it with 400, so a stranger cannot have a thousand procedures run for one request.
 */
export const TRPC_MAX_BATCH = 10;
