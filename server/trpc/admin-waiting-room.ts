import { z } from "zod";
import { updateWaitingRoom, waitingRoomAdmin } from "#server/services/drop/waiting-room-admin";
import { adminProcedure, router } from "./init";

/** The drop's waiting room for /admin/drop: the same service as GET/PATCH /api/admin/waiting-room. */
export const adminWaitingRoomRouter = router({
  get: adminProcedure.query(({ ctx }) => waitingRoomAdmin(ctx.app)),
  /** Any of the settings, `paused`, `ended`; the service checks them with the shared contract. */
  update: adminProcedure.input(z.unknown()).mutation(({ ctx, input }) => updateWaitingRoom(ctx.app, input)),
});
