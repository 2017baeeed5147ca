import { router } from "./init";

/** Admin subscriber, export, e-mail campaign and outbox procedures (issue 6). */
export const adminSubscribersRouter = router({});
