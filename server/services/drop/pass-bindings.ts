import type { AppContext } from "#server/context";

/**
 * Passes bound to one bag (decision 0036). A pass is a cookie, and a cookie can be copied: so the
 * first bag that buys with a pass (adds to itself, or is ordered) owns it, and the pass counts for
 * nothing in any other bag. The binding is a row written once (insert-if-absent), so every worker
 * and instance agrees on who was first; a binding never changes, so each process keeps the ones it
 * has seen (bounded) and asks the database only about passes it has not seen bound.
 */

const MAX_REMEMBERED = 10_000;
// Per database handle: two test contexts in one process never see each other's bindings.
const remembered = new WeakMap<object, Map<string, string>>();

function memoOf(ctx: AppContext): Map<string, string> {
  let memo = remembered.get(ctx.db);
  if (!memo) remembered.set(ctx.db, (memo = new Map()));
  return memo;
}

function remember(ctx: AppContext, pass: string, bagId: string): string {
  const memo = memoOf(ctx);
  if (memo.size >= MAX_REMEMBERED) memo.delete(memo.keys().next().value!);
  memo.set(pass, bagId);
  return bagId;
}

/** The bag a pass is bound to, or null while no bag has bought with it. */
export async function boundBagOf(ctx: AppContext, pass: string): Promise<string | null> {
  const known = memoOf(ctx).get(pass);
  if (known !== undefined) return known;
  const row = await ctx.db.selectFrom("passBindings").select("bagId").where("pass", "=", pass).executeTakeFirst();
  return row ? remember(ctx, pass, row.bagId) : null;
}

/**
 * Binds the pass to this bag unless a bag already has it: true when the pass is (now) this bag's.
 * Of two bags binding at once, exactly one gets true.
 */
export async function bindPassToBag(ctx: AppContext, pass: string, bagId: string): Promise<boolean> {
  const known = await boundBagOf(ctx, pass);
  if (known !== null) return known === bagId;
  const inserted = await ctx.db
    .insertInto("passBindings")
    .values({ pass, bagId, boundAt: ctx.clock.now().toISOString() })
    .onConflict((oc) => oc.column("pass").doNothing())
    .returning("bagId")
    .executeTakeFirst();
  if (!inserted) return (await boundBagOf(ctx, pass)) === bagId;
  remember(ctx, pass, bagId);
  return true;
}

/**
 * Whether a browser may use the pass without binding it: unbound, or bound to its bag. A browser
 * without a bag is no other bag yet: it may look, and start a bag (that bag then meets the binding
 * at its next purchase).
 */
export async function passFreeFor(ctx: AppContext, pass: string, bagId: string | null): Promise<boolean> {
  if (bagId === null) return true;
  const bound = await boundBagOf(ctx, pass);
  return bound === null || bound === bagId;
}
