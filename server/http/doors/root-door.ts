import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { paymentModeName } from "#server/config";
import type { Visitor } from "#server/contracts/visitor";
import { isTemplateRender } from "#server/http/cache/page-template";
import { shopperContext } from "#server/http/gate/early-access";
import { badgeFromPageBag } from "#server/http/request-bag";
import { readVisitor } from "#server/http/visitor";

/** The root route's data, on every page: the brand, the year, which test-mode banner, and the visitor. */
export async function rootLoader({ request, context }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const shared = {
    brand: ctx.config.brand,
    year: ctx.clock.now().getUTCFullYear(),
    // Which test-mode banner every page shows: the built-in processor's, Stripe's test keys', or none.
    testMode: { test: "local", "stripe-test": "stripe", "stripe-live": null }[paymentModeName(ctx.config)] as "local" | "stripe" | null,
  };
  // The page cache's template is rendered for nobody: its root data goes into every visitor's
  // copy, so the visitor is left to the holes (decision 0014).
  if (isTemplateRender(context)) return data({ ...shared, visitor: null as Visitor | null });
  // The bag count includes what an early-access pass opens (decision 0020).
  // On /cart and /checkout the badge counts the page's own read of the bag (one read per request).
  const shopper = await shopperContext(ctx, request);
  const { visitor, setCookies } = await readVisitor(shopper, request, badgeFromPageBag(shopper, request, context));
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return data({ ...shared, visitor: visitor as Visitor | null }, { headers });
}
