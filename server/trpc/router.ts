import { getOverview } from "#server/services/reporting/dashboard";
import { adminDropsRouter } from "./admin-drops";
import { adminEarlyAccessRouter } from "./admin-early-access";
import { adminOrdersRouter } from "./admin-orders";
import { adminProductsRouter } from "./admin-products";
import { adminReportsRouter } from "./admin-reports";
import { adminSettingsRouter } from "./admin-settings";
import { adminSubscribersRouter } from "./admin-subscribers";
import { adminWaitingRoomRouter } from "./admin-waiting-room";
import { adminProcedure, publicProcedure, router } from "./init";

/** Each feature adds its own sub-router, over the same services the REST doors call. */
export const appRouter = router({
  session: router({
    me: publicProcedure.query(({ ctx }) => ctx.user),
  }),
  admin: router({
    overview: adminProcedure.query(({ ctx }) => getOverview(ctx.app)),
    products: adminProductsRouter,
    orders: adminOrdersRouter,
    subscribers: adminSubscribersRouter,
    settings: adminSettingsRouter,
    earlyAccess: adminEarlyAccessRouter,
    waitingRoom: adminWaitingRoomRouter,
    reports: adminReportsRouter,
    drops: adminDropsRouter,
  }),
});

export type AppRouter = typeof appRouter;
