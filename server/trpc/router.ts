import { getOverview } from "../services/dashboard";
import { adminProcedure, publicProcedure, router } from "./init";

/** Each feature adds its own sub-router here, over the same services the REST doors call. */
export const appRouter = router({
  session: router({
    me: publicProcedure.query(({ ctx }) => ctx.user),
  }),
  admin: router({
    overview: adminProcedure.query(({ ctx }) => getOverview(ctx.app)),
  }),
});

export type AppRouter = typeof appRouter;
