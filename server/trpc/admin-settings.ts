import { router } from "./init";

/** Admin app-settings and account procedures (issue 6). */
export const adminSettingsRouter = router({});
