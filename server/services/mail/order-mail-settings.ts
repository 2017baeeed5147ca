import { ORDER_EMAIL_KINDS, type OrderEmailKind } from "#server/contracts/order-emails";
import type { AppContext } from "#server/context";

/** app_settings rows of their own, kept out of SETTING_KEYS: those are public (the launch pages). */
const keyOf = (kind: OrderEmailKind) => `order_email_${kind}`;

/** Which of the buyer's e-mails on the way are sent; each is on until the admin turns it off. */
export async function getOrderMailSettings(ctx: AppContext): Promise<Record<OrderEmailKind, boolean>> {
  const rows = await ctx.db.selectFrom("appSettings").select(["key", "value"]).where("key", "in", ORDER_EMAIL_KINDS.map(keyOf)).execute();
  const off = new Set(rows.filter((row) => row.value === "off").map((row) => row.key));
  return Object.fromEntries(ORDER_EMAIL_KINDS.map((kind) => [kind, !off.has(keyOf(kind))])) as Record<OrderEmailKind, boolean>;
}

export async function orderMailOn(ctx: AppContext, kind: OrderEmailKind): Promise<boolean> {
  return (await getOrderMailSettings(ctx))[kind];
}

export async function setOrderMailSettings(ctx: AppContext, values: Record<OrderEmailKind, boolean>) {
  const updatedAt = ctx.clock.now().toISOString();
  for (const kind of ORDER_EMAIL_KINDS) {
    const value = values[kind] ? "on" : "off";
    await ctx.db
      .insertInto("appSettings")
      .values({ key: keyOf(kind), value, updatedAt })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updatedAt }))
      .execute();
  }
  return getOrderMailSettings(ctx);
}
