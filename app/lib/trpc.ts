import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../server/trpc/router";

/** Typed tRPC hooks for the admin widgets (the router type is imported as a type only). */
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
