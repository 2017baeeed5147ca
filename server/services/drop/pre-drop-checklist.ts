import { formatDistanceStrict } from "date-fns";
import { TEST_EMAIL_TAG, type ChecklistItem, type PreDropChecklist } from "#server/contracts/drops";
import type { AppContext } from "#server/context";
import { discountedCents } from "#server/services/catalog/catalog";
import { currentDrop } from "./drops";
import { readRoom } from "./waiting-room-state";
import { paymentModeName } from "#server/config";

/**
 * The pre-drop checklist (issue 14 part 3, decision 0026): is the store ready for the coming
 * T-0? Each line is green (ready), amber (works, but worth a look) or red (the drop would go
 * wrong), with a plain reason and the admin page that fixes it. Read-only.
 */

/** A test e-mail older than this says little about today's mail setup. */
const TEST_EMAIL_FRESH_MS = 7 * 24 * 60 * 60_000;

const list = (names: string[]) => (names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

interface DropProduct {
  id: number;
  name: string;
  priceCents: number;
  inventory: number;
  hasImage: boolean;
}

/**
 * The products the drop sells: visible ones restricted to this countdown (their own release at T-0,
 * or none, which means the launch); when there are none, every visible product on sale.
 */
async function dropProducts(ctx: AppContext, countdownAt: string): Promise<DropProduct[]> {
  const rows = await ctx.db
    .selectFrom("products")
    .select((eb) => [
      "id",
      "name",
      "priceCents",
      "discountPercent",
      "inventory",
      "imageUrl",
      "isCountdownRestricted",
      "countdownReleaseDate",
      eb
        .exists(eb.selectFrom("productImages").select("productImages.id").whereRef("productImages.productId", "=", "products.id"))
        .as("hasImages"),
    ])
    .where("isVisible", "=", 1)
    .where("isComingSoon", "=", 0)
    .orderBy("id")
    .execute();
  const own = rows.filter(
    (r) => r.isCountdownRestricted === 1 && (r.countdownReleaseDate === null || r.countdownReleaseDate === countdownAt),
  );
  return (own.length > 0 ? own : rows).map((r) => ({
    id: r.id,
    name: r.name,
    // What a buyer pays: the database insists on a price, but a 100 % discount gives the product away.
    priceCents: discountedCents(r.priceCents, r.discountPercent),
    inventory: r.inventory,
    hasImage: r.imageUrl !== null || Boolean(Number(r.hasImages)),
  }));
}

function productItems(products: DropProduct[]): ChecklistItem[] {
  const fix = { fixHref: "/admin/products", fixLabel: "Products" };
  if (products.length === 0) {
    const reason = "No product is visible for the drop.";
    return [
      { id: "products", label: "Products visible with images", level: "red", reason, ...fix },
      { id: "stock", label: "Stock above 0", level: "red", reason, ...fix },
      { id: "prices", label: "Prices set", level: "red", reason, ...fix },
    ];
  }
  const noImage = products.filter((p) => !p.hasImage).map((p) => p.name);
  const noStock = products.filter((p) => p.inventory <= 0).map((p) => p.name);
  const noPrice = products.filter((p) => p.priceCents <= 0).map((p) => p.name);
  const all = plural(products.length, "product");
  return [
    {
      id: "products",
      label: "Products visible with images",
      level: noImage.length === 0 ? "green" : noImage.length === products.length ? "red" : "amber",
      reason: noImage.length === 0 ? `${all} visible, each with an image.` : `No image: ${list(noImage)}.`,
      ...fix,
    },
    {
      id: "stock",
      label: "Stock above 0",
      level: noStock.length === 0 ? "green" : noStock.length === products.length ? "red" : "amber",
      reason:
        noStock.length === 0
          ? `${plural(
              products.reduce((sum, p) => sum + p.inventory, 0),
              "unit",
            )} in stock across ${all}.`
          : `Out of stock: ${list(noStock)}.`,
      ...fix,
    },
    {
      id: "prices",
      label: "Prices set",
      level: noPrice.length === 0 ? "green" : "red",
      reason: noPrice.length === 0 ? `Every product has a price.` : `Sells for $0 (a 100% discount): ${list(noPrice)}.`,
      ...fix,
    },
  ];
}

async function mailItem(ctx: AppContext, now: number): Promise<ChecklistItem> {
  const fix = { fixHref: "/admin/outbox", fixLabel: "Outbox" };
  const last = await ctx.db
    .selectFrom("mailMessages")
    .select(["createdAt", "status"])
    .where("tag", "=", TEST_EMAIL_TAG)
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  const configured = ctx.config.postmark.serverToken !== null;
  const label = "Mail configured, test e-mail sent";
  if (!configured) {
    return {
      id: "mail",
      label,
      level: "red",
      reason: "Mail goes to the local outbox only: buyers get no confirmation. Set POSTMARK_SERVER_TOKEN and POSTMARK_FROM.",
      ...fix,
    };
  }
  if (!last || last.status === "failed" || now - Date.parse(last.createdAt) > TEST_EMAIL_FRESH_MS) {
    const why = !last
      ? "no test e-mail was sent yet"
      : last.status === "failed"
        ? "the last test e-mail failed"
        : "the last test e-mail is over a week old";
    return { id: "mail", label, level: "amber", reason: `Postmark is set, but ${why}.`, ...fix };
  }
  return {
    id: "mail",
    label,
    level: "green",
    reason: `Postmark is set; a test e-mail went out ${formatDistanceStrict(Date.parse(last.createdAt), now)} ago.`,
    ...fix,
  };
}

function shipFromItem(ctx: AppContext): ChecklistItem {
  const fix = { fixHref: "/admin/settings", fixLabel: "Shipping test" };
  const label = "Ship-from address set";
  // Where SHIP_FROM_* is unset the Shippo integration ships from a demo warehouse.
  const { apiKey, from, fromMissing: missing } = ctx.config.shippo;
  if (missing.length === 0)
    return {
      id: "shipFrom",
      label,
      level: "green",
      reason: `Parcels ship from ${from.city}, ${from.state}.`,
      ...fix,
    };
  return {
    id: "shipFrom",
    label,
    level: apiKey?.trim() ? "red" : "amber",
    reason: `Labels would show the demo warehouse: set ${missing.join(", ")}.`,
    ...fix,
  };
}

async function earlyAccessItem(ctx: AppContext, countdownAt: string): Promise<ChecklistItem> {
  const fix = { fixHref: "/admin/email", fixLabel: "Email" };
  const label = "Early-access mail sent";
  const previous = await ctx.db
    .selectFrom("drops")
    .select("countdownAt")
    .where("countdownAt", "<", countdownAt)
    .orderBy("countdownAt", "desc")
    .executeTakeFirst();
  let query = ctx.db
    .selectFrom("earlyAccessLinks")
    .select((eb) => [eb.fn.count<number>("campaignId").as("mailed"), eb.fn.countAll<number>().as("made")]);
  if (previous) query = query.where("createdAt", ">", previous.countdownAt);
  const { mailed, made } = await query.executeTakeFirstOrThrow();
  if (Number(mailed) > 0)
    return {
      id: "earlyAccess",
      label,
      level: "green",
      reason: `Early-access links mailed to ${plural(Number(mailed), "subscriber")}.`,
      ...fix,
    };
  return {
    id: "earlyAccess",
    label,
    level: "amber",
    reason:
      Number(made) > 0
        ? `${plural(Number(made), "link")} made one by one; no campaign with {{early_access_link}} was sent for this drop.`
        : "No early-access mail for this drop: send a campaign with {{early_access_link}}.",
    ...fix,
  };
}

/** GET /api/admin/pre-drop-checklist, tRPC admin.drops.checklist and the dashboard. */
export async function preDropChecklist(ctx: AppContext): Promise<PreDropChecklist> {
  const now = ctx.clock.now().getTime();
  const drop = await currentDrop(ctx);
  const t0 = Date.parse(drop.countdownAt);
  const ahead = t0 > now;
  const [products, room, mail, earlyAccess] = await Promise.all([
    dropProducts(ctx, drop.countdownAt),
    readRoom(ctx),
    mailItem(ctx, now),
    earlyAccessItem(ctx, drop.countdownAt),
  ]);
  const items: ChecklistItem[] = [
    ...productItems(products),
    {
      id: "countdown",
      label: "Countdown in the future",
      level: ahead ? "green" : "red",
      reason: ahead ? `T-0 is in ${formatDistanceStrict(t0, now)}.` : "The countdown date has passed: set the next drop's date.",
      fixHref: "/admin/app-settings",
      fixLabel: "App Settings",
    },
    ctx.config.payments.mode === "stripe"
      ? paymentModeName(ctx.config) === "stripe-test"
        ? {
            id: "payments",
            label: "Payments live",
            level: "amber",
            reason: "Stripe test keys: no real card is charged. Set the live keys (sk_live_…, pk_live_…) before the drop.",
            fixHref: null,
            fixLabel: null,
          }
        : { id: "payments", label: "Payments live", level: "green", reason: "Stripe takes the payments.", fixHref: null, fixLabel: null }
      : {
          id: "payments",
          label: "Payments live",
          level: "red",
          reason: "Test mode: no card is charged. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY.",
          fixHref: null,
          fixLabel: null,
        },
    shipFromItem(ctx),
    mail,
    {
      id: "waitingRoom",
      label: "Waiting room rate set",
      level: room.enabled ? "green" : "amber",
      reason: room.enabled
        ? `Lets in ${room.admitPerMinute} a minute, opens ${room.opensMinutesBefore} minutes before T-0.`
        : "The waiting room is off: the whole crowd reaches the store at T-0.",
      fixHref: "/admin/drop",
      fixLabel: "Drop",
    },
    earlyAccess,
  ];
  return { countdownAt: drop.countdownAt, ahead, items };
}
