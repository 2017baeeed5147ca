import { router } from "./init";

/** Admin product and image procedures (issue 5). */
export const adminProductsRouter = router({});
