import { sql } from "kysely";
import type { AppContext } from "#server/context";
import { waitingRoomAdmin } from "#server/services/drop/waiting-room-admin";

/**
 * What the database says about drop day right now, for the metrics (decision 0048): figures every
 * process reads alike, so a scrape of several workers reports them once, not added up.
 */
export interface OpsSnapshot {
  waitingRoom: { waiting: number; admitted: number; admittedLastMinute: number };
  /** Units of the products on sale (visible): held by checkouts under way, sold, and left on the shelf. */
  units: { held: number; sold: number; left: number };
  /** Paid orders whose e-mail or label is still to do, and the oldest's payment time. */
  fulfilment: { depth: number; oldestAt: string | null };
  /** Campaign mail not sent yet, and when the oldest such campaign was started. */
  outbox: { depth: number; oldestAt: string | null };
}

const total = (value: unknown) => Number(value ?? 0);

export async function opsSnapshot(ctx: AppContext): Promise<OpsSnapshot> {
  const [room, holds, shelf, fulfilment, outbox] = await Promise.all([
    waitingRoomAdmin(ctx),
    ctx.db
      .selectFrom("inventoryHolds")
      .innerJoin("products", "products.id", "inventoryHolds.productId")
      .select([
        sql<number>`coalesce(sum(case when inventory_holds.status = 'held' then inventory_holds.quantity else 0 end), 0)`.as("held"),
        sql<number>`coalesce(sum(case when inventory_holds.status = 'sold' then inventory_holds.quantity else 0 end), 0)`.as("sold"),
      ])
      .where("products.isVisible", "=", 1)
      .where("inventoryHolds.status", "in", ["held", "sold"])
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom("products")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("inventory"), sql<number>`0`).as("left"))
      .where("isVisible", "=", 1)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom("orders")
      .select((eb) => [eb.fn.countAll<number>().as("depth"), eb.fn.min("paidAt").as("oldestAt")])
      .where("paidAt", "is not", null)
      .where("fulfilledAt", "is", null)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom("campaignRecipients")
      .innerJoin("emailCampaigns", "emailCampaigns.id", "campaignRecipients.campaignId")
      .select((eb) => [eb.fn.countAll<number>().as("depth"), eb.fn.min("emailCampaigns.createdAt").as("oldestAt")])
      .where("campaignRecipients.status", "=", "pending")
      .executeTakeFirstOrThrow(),
  ]);
  return {
    waitingRoom: { waiting: room.waiting, admitted: room.admitted, admittedLastMinute: room.admittedLastMinute },
    units: { held: total(holds.held), sold: total(holds.sold), left: total(shelf.left) },
    fulfilment: { depth: total(fulfilment.depth), oldestAt: fulfilment.oldestAt ?? null },
    outbox: { depth: total(outbox.depth), oldestAt: (outbox.oldestAt as string | null) ?? null },
  };
}
