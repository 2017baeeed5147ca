import type { Migration } from "kysely";
import { init } from "./0001_init";
import { mailMessages } from "./0002_mail_messages";
import { checkout } from "./0003_checkout";
import { campaigns } from "./0004_campaigns";
import { fulfilment } from "./0005_fulfilment";
import { hostedCheckout } from "./0006_hosted_checkout";
import { subscriberListIndex } from "./0007_subscriber_list_index";
import { testOrders } from "./0008_test_orders";
import { sharedBetweenWorkers } from "./0009_shared_between_workers";
import { pageVersion } from "./0010_page_version";
import { waitingRoom } from "./0011_waiting_room";
import { earlyAccessAndLimits } from "./0012_early_access_and_limits";
import { events } from "./0013_events";
import { pageVersionsPerProduct } from "./0014_page_versions_per_product";
import { drops } from "./0016_drops";
import { eventSessions } from "./0017_event_sessions";
import { passBindings } from "./0018_pass_bindings";
import { crashSafeRefundsAndLabels } from "./0019_crash_safe_refunds_and_labels";
import { eventCounts } from "./0020_event_counts";
import { sizesAndColours } from "./0021_sizes_and_colours";
import { orderPages } from "./0022_order_pages";
import { draws } from "./0023_draws";
import { alertWindows } from "./0025_alert_windows";
import { holdsPerVariant } from "./0026_holds_per_variant";
import { labelTrackingIndex } from "./0027_label_tracking_index";
import { unpaidOrdersBySession } from "./0028_unpaid_orders_by_session";
import { unpaidOrdersByHoldExpiry } from "./0029_unpaid_orders_by_hold_expiry";
import { refundClaimedAt } from "./0030_refund_claimed_at";
import { mailSends } from "./0031_mail_sends";
import { drawPerProductAndEventIds } from "./0032_draw_per_product_and_event_ids";

/**
 * Migrations live in code, not found on disk, so they survive the Vite build
 * (FileMigrationProvider cannot see files inside a bundle). Add new ones at the end.
 */
export const migrations: Record<string, Migration> = {
  "0001_init": init,
  "0002_mail_messages": mailMessages,
  "0003_checkout": checkout,
  "0004_campaigns": campaigns,
  "0005_fulfilment": fulfilment,
  "0006_hosted_checkout": hostedCheckout,
  "0007_subscriber_list_index": subscriberListIndex,
  "0008_test_orders": testOrders,
  "0009_shared_between_workers": sharedBetweenWorkers,
  "0010_page_version": pageVersion,
  "0011_waiting_room": waitingRoom,
  "0012_early_access_and_limits": earlyAccessAndLimits,
  "0013_events": events,
  "0014_page_versions_per_product": pageVersionsPerProduct,
  "0016_drops": drops,
  "0017_event_sessions": eventSessions,
  "0018_pass_bindings": passBindings,
  "0019_crash_safe_refunds_and_labels": crashSafeRefundsAndLabels,
  "0020_event_counts": eventCounts,
  "0021_sizes_and_colours": sizesAndColours,
  "0022_order_pages": orderPages,
  "0023_draws": draws,
  "0025_alert_windows": alertWindows,
  "0026_holds_per_variant": holdsPerVariant,
  "0027_label_tracking_index": labelTrackingIndex,
  "0028_unpaid_orders_by_session": unpaidOrdersBySession,
  "0029_unpaid_orders_by_hold_expiry": unpaidOrdersByHoldExpiry,
  "0030_refund_claimed_at": refundClaimedAt,
  "0031_mail_sends": mailSends,
  "0032_draw_per_product_and_event_ids": drawPerProductAndEventIds,
};
