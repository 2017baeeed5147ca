import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "#server/trpc/router";

/**
 * Typed tRPC hooks for the admin widgets. The router's type is imported here, as a type only (no
 * server code reaches the browser), and components take it from this client helper.
 */
export type { AppRouter };

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
