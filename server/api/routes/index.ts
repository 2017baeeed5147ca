import { adminDropRoutes } from "./admin-drops";
import { adminEarlyAccessRoutes } from "./admin-early-access";
import { adminOrderRoutes } from "./admin-orders";
import { adminProductRoutes } from "./admin-products";
import { adminReportRoutes } from "./admin-reports";
import { adminSettingsRoutes } from "./admin-settings";
import { adminSubscriberRoutes } from "./admin-subscribers";
import { cartRoutes } from "./cart";
import { catalogRoutes } from "./catalog";
import { checkoutRoutes } from "./checkout";
import { cspReportRoutes } from "./csp-report";
import { orderRoutes } from "./orders";
import { drawRoutes } from "./draws";
import { publicFormRoutes } from "./public-forms";
import { publicSettingsRoutes } from "./public-settings";
import { sessionRoutes } from "./session";
import { trpcRoutes } from "./trpc";
import { waitingRoomRoutes } from "./waiting-room";
import { webhookRoutes } from "./webhooks";
import type { ApiRoute } from "#server/api/route";

/** Every /api door: the REST contract of docs/spec.md §7, the webhooks, and the tRPC endpoint. */
export const apiRoutes: ApiRoute[] = [
  ...sessionRoutes,
  ...publicSettingsRoutes,
  ...catalogRoutes,
  ...cartRoutes,
  ...checkoutRoutes,
  ...publicFormRoutes,
  ...orderRoutes,
  ...webhookRoutes,
  ...cspReportRoutes,
  ...adminOrderRoutes,
  ...adminProductRoutes,
  ...adminSettingsRoutes,
  ...adminSubscriberRoutes,
  ...adminEarlyAccessRoutes,
  ...adminReportRoutes,
  ...waitingRoomRoutes,
  ...adminDropRoutes,
  ...drawRoutes,
  ...trpcRoutes,
];
