import { router } from "./init";

/** Admin order, status and refund procedures (issue 5). */
export const adminOrdersRouter = router({});
