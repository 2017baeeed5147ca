import type { AppContext } from "../context";

export interface Overview {
  subscribers: number;
  products: number;
  orders: number;
}

/** The headline counts an admin sees first. */
export async function getOverview(ctx: AppContext): Promise<Overview> {
  const count = async (table: "subscribers" | "products" | "orders") => {
    const row = await ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const [subscribers, products, orders] = await Promise.all([count("subscribers"), count("products"), count("orders")]);
  return { subscribers, products, orders };
}
