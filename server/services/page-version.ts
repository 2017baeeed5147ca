import type { AppContext } from "../context";

/**
 * The counter that moves whenever a product, its images or a setting changes (triggers in
 * migration 0010, inside the writing transaction). The page cache compares it with the one its
 * pages were rendered at.
 */
export async function readPageVersion(ctx: AppContext): Promise<number> {
  const row = await ctx.db.selectFrom("pageVersion").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version ?? 0;
}
