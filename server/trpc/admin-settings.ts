import { z } from "zod";
import { TEXT_SETTING_KEYS } from "#server/contracts/admin-settings";
import { changePassword, runShippingTest } from "#server/services/accounts/account";
import { getAdminSettings, setBackgroundMusic, setBackgroundVideo, setCountdownDate, setText } from "#server/services/store/admin-settings";
import { adminProcedure, router, type TrpcContext } from "./init";

// Inputs are only shaped here; the services check them with the shared contracts, so a bad value
// comes back as a readable message with field errors (a zod error here would be a JSON dump).
const loose = z.unknown();

/**
 * The session token, when the tRPC context carries one. The password change keeps that session
 * and signs out the others; without it (the context does not carry it yet) it signs out all of them.
 */
function sessionTokenOf(ctx: TrpcContext): string | null {
  const token = (ctx as TrpcContext & { sessionToken?: unknown }).sessionToken;
  return typeof token === "string" && token !== "" ? token : null;
}

/** Admin app-settings and account procedures (issue 6): the services behind the REST doors. */
export const adminSettingsRouter = router({
  /** Every setting, the countdown already in New York time (the App Settings tab). */
  get: adminProcedure.query(({ ctx }) => getAdminSettings(ctx.app)),
  /** `{date: "yyyy-MM-dd", time: "HH:MM"}`, Eastern wall-clock. */
  setCountdownDate: adminProcedure.input(loose).mutation(({ ctx, input }) => setCountdownDate(ctx.app, input)),
  setBackgroundVideo: adminProcedure
    .input(z.object({ videoUrl: loose }))
    .mutation(async ({ ctx, input }) => ({ videoUrl: (await setBackgroundVideo(ctx.app, input.videoUrl)).value })),
  setBackgroundMusic: adminProcedure
    .input(z.object({ musicUrl: loose }))
    .mutation(async ({ ctx, input }) => ({ musicUrl: (await setBackgroundMusic(ctx.app, input.musicUrl)).value })),
  setText: adminProcedure
    .input(z.object({ key: z.enum(TEXT_SETTING_KEYS), text: loose }))
    .mutation(async ({ ctx, input }) => ({ text: (await setText(ctx.app, input.key, input.text)).value })),
  /** `{currentPassword, newPassword, confirmPassword?}` → `{message}`. */
  changePassword: adminProcedure.input(loose).mutation(({ ctx, input }) => changePassword(ctx.app, ctx.user, sessionTokenOf(ctx), input)),
  testShipping: adminProcedure.mutation(({ ctx }) => runShippingTest(ctx.app)),
});
