import { CHECKOUT_MESSAGES } from "#server/contracts/checkout";
import type { AppContext } from "#server/context";
import { Conflict } from "#server/errors";
import { logError } from "#server/observability/log";

/**
 * Sold-out misses (decision 0026): a shopper who reached Process Order after a product in the bag
 * had sold out. Checkout refuses them with a 409 (SoldOut, a Conflict); the refusal is recorded
 * here, outside the order's transaction (which rolled back), so the drop report can count them.
 */
export class SoldOut extends Conflict {
  constructor(
    readonly productId: number,
    readonly productName: string,
  ) {
    super(CHECKOUT_MESSAGES.soldOut(productName));
  }
}

/** Records the miss when `error` is a sold-out refusal; never throws (a failed record must not hide the 409). */
export async function recordSoldOutMiss(
  ctx: AppContext,
  error: unknown,
  shopper: { sessionId: string | null; customerKey: string | null },
): Promise<void> {
  if (!(error instanceof SoldOut)) return;
  try {
    await ctx.db
      .insertInto("soldOutMisses")
      .values({
        productId: error.productId,
        productName: error.productName,
        sessionId: shopper.sessionId,
        customerKey: shopper.customerKey,
        createdAt: ctx.clock.now().toISOString(),
      })
      .execute();
  } catch (failure) {
    logError("Could not record a sold-out miss", failure);
  }
}
