import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * Database types. Columns are snake_case in SQLite and camelCase here (CamelCasePlugin).
 * Money is integer cents (`...Cents`); booleans are 0/1; instants are ISO-8601 UTC text.
 */
type Timestamp = ColumnType<string, string | undefined, string>;
type Flag = ColumnType<0 | 1, 0 | 1 | undefined, 0 | 1>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  passwordHash: string;
  email: string;
  isAdmin: Flag;
  createdAt: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the token, hex: the token itself is never stored. */
  id: string;
  userId: number;
  expiresAt: string;
  createdAt: Timestamp;
}

export interface SubscribersTable {
  id: Generated<number>;
  email: string;
  subscribedAt: Timestamp;
  unsubscribedAt: string | null;
}

export interface ProductsTable {
  id: Generated<number>;
  name: string;
  description: string;
  priceCents: number;
  imageUrl: string | null;
  imagePath: string | null;
  inventory: ColumnType<number, number | undefined, number>;
  isVisible: Flag;
  promoCode: string | null;
  discountPercent: ColumnType<number, number | undefined, number>;
  /** JSON array of colour names. */
  availableColors: ColumnType<string, string | undefined, string>;
  isComingSoon: Flag;
  releaseDate: string | null;
  isCountdownRestricted: Flag;
  countdownReleaseDate: string | null;
  /** Units one customer may own (paid orders and live holds); null: no limit (0012). */
  maxPerCustomer: ColumnType<number | null, number | null | undefined, number | null>;
  weight: ColumnType<number, number | undefined, number>;
  length: ColumnType<number, number | undefined, number>;
  width: ColumnType<number, number | undefined, number>;
  height: ColumnType<number, number | undefined, number>;
  /** 1: stock is kept per colour and size in `product_variants` (0021); 0: colours share their size's stock. */
  stockPerColor: Flag;
  /** Optional size guide shown in a dialog on the product page: plain text, a table as tab-separated lines. */
  sizeGuide: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A product's sizes in order (0021); none means one implicit "One Size" whose stock is products.inventory. */
export interface ProductSizesTable {
  id: Generated<number>;
  productId: number;
  label: string;
  /** The label lower-cased: unique per product, so "m" and "M" are one size. */
  labelKey: string;
  position: number;
  /** With stock per colour: the sum of this size's variants. */
  inventory: ColumnType<number, number | undefined, number>;
}

/** Stock per colour and size, only for a product with `stockPerColor` (0021). `size` is '' without sizes. */
export interface ProductVariantsTable {
  id: Generated<number>;
  productId: number;
  size: ColumnType<string, string | undefined, string>;
  color: string;
  inventory: ColumnType<number, number | undefined, number>;
}

export interface AppSettingsTable {
  id: Generated<number>;
  key: string;
  value: string;
  updatedAt: Timestamp;
}

export interface ProductImagesTable {
  id: Generated<number>;
  productId: number;
  imageUrl: string | null;
  imagePath: string | null;
  /** The spec's image-host public identifier; kept for parity, null for locally stored images. */
  cloudinaryPublicId: string | null;
  isPrimary: Flag;
  displayOrder: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
}

export interface CartItemsTable {
  id: Generated<number>;
  sessionId: string;
  productId: number;
  quantity: ColumnType<number, number | undefined, number>;
  /** The size label, '' for a product without sizes (0021). */
  size: ColumnType<string, string | undefined, string>;
  /** The colour chosen, '' for a product without colours (0021). */
  color: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type OrderStatus = "pending" | "processing" | "shipped" | "delivered" | "cancelled";
export type RefundStatus = "none" | "pending" | "completed";

export interface OrdersTable {
  id: Generated<number>;
  sessionId: string | null;
  customerEmail: string;
  customerName: string;
  customerPhone: string | null;
  /** JSON text: street, city, state, zipCode, country. */
  shippingAddress: string;
  billingAddress: string | null;
  subtotalCents: number;
  discountCents: ColumnType<number, number | undefined, number>;
  taxCents: ColumnType<number, number | undefined, number>;
  shippingCents: ColumnType<number, number | undefined, number>;
  totalCents: number;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  paymentIntentId: string | null;
  refundStatus: ColumnType<RefundStatus, RefundStatus | undefined, RefundStatus>;
  refundAmountCents: ColumnType<number, number | undefined, number>;
  refundedAt: string | null;
  /** When the pending refund's claim was made: a stale one is taken over (0030, refunds.ts). */
  refundClaimedAt: ColumnType<string | null, string | null | undefined, string | null>;
  holdExpiresAt: string | null;
  paidAt: string | null;
  /** The carrier-method key the buyer chose, e.g. "usps-ground_saver". */
  shippingMethod: string | null;
  /** The confirmation e-mail was accepted (outbox or Postmark). */
  confirmationSentAt: string | null;
  /** Nothing left to do after payment: e-mail sent, label bought or given up on. */
  fulfilledAt: string | null;
  fulfilAttempts: ColumnType<number, number | undefined, number>;
  /** When the sweeper may try the unfinished steps again; null means at once. */
  fulfilNextAt: string | null;
  /** The Stripe Checkout Session a buyer without JavaScript was sent to, if any. */
  checkoutSessionId: string | null;
  /** Placed in test mode: paid with a test card, so no money came in (left out of revenue). */
  isTest: Flag;
  /** The buyer's e-mail, case-folded, and the shipping address normalised: the per-customer limit's keys (0012). */
  customerKey: ColumnType<string | null, string | null | undefined, string | null>;
  addressKey: ColumnType<string | null, string | null | undefined, string | null>;
  /** Random per order: the order page's token is an HMAC of it (0022, decision 0046). */
  pageNonce: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 (hex) of the order page's token: how the page finds its order. */
  pageTokenHash: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the status last reached shipped, delivered, cancelled (the page's timeline). */
  shippedAt: ColumnType<string | null, string | null | undefined, string | null>;
  deliveredAt: ColumnType<string | null, string | null | undefined, string | null>;
  cancelledAt: ColumnType<string | null, string | null | undefined, string | null>;
  /** The buyer's e-mail of that kind was claimed (sent once per order). */
  shippedMailedAt: ColumnType<string | null, string | null | undefined, string | null>;
  deliveredMailedAt: ColumnType<string | null, string | null | undefined, string | null>;
  cancelledMailedAt: ColumnType<string | null, string | null | undefined, string | null>;
  refundMailedAt: ColumnType<string | null, string | null | undefined, string | null>;
  /** The store's origin as the buyer ordered from it: the e-mails' links, unless PUBLIC_URL is set. */
  siteOrigin: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface InventoryHoldsTable {
  id: Generated<number>;
  orderId: number;
  productId: number;
  quantity: number;
  status: ColumnType<"held" | "sold" | "released", "held" | "sold" | "released" | undefined, "held" | "sold" | "released">;
  /** The size and colour whose stock the hold took ('' for none, 0021). */
  size: ColumnType<string, string | undefined, string>;
  color: ColumnType<string, string | undefined, string>;
  expiresAt: string;
  createdAt: Timestamp;
}

export interface LocalPaymentIntentsTable {
  id: string;
  clientSecret: string;
  amountCents: number;
  currency: ColumnType<string, string | undefined, string>;
  status: ColumnType<string, string | undefined, string>;
  lastError: string | null;
  orderId: number | null;
  idempotencyKey: string | null;
  refundedCents: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PaymentEventsTable {
  id: string;
  type: string;
  paymentIntentId: string | null;
  receivedAt: Timestamp;
}

export interface OrderItemsTable {
  id: Generated<number>;
  orderId: number;
  productId: number | null;
  productName: string;
  productPriceCents: number;
  quantity: number;
  totalCents: number;
  /** The size and colour bought, as labelled then; null for a product without sizes / colours (0021). */
  size: ColumnType<string | null, string | null | undefined, string | null>;
  color: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
}

export interface ShippingLabelsTable {
  id: Generated<number>;
  orderId: number;
  labelUrl: ColumnType<string, string | undefined, string>;
  trackingNumber: ColumnType<string, string | undefined, string>;
  carrier: string;
  costCents: number;
  /** created, failed, or purchasing: written before the provider is asked (0019, decision 0038). */
  status: ColumnType<string, string | undefined, string>;
  errorMessage: string | null;
  /** What the provider sees with the purchase (Shippo: the transaction's metadata; local: the label's name). */
  idempotencyKey: ColumnType<string | null, string | null | undefined, string | null>;
  /** Finds the purchase again after a crash: Shippo's rate before buying, its transaction after. */
  providerRef: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
}

export interface RefundsTable {
  id: Generated<number>;
  orderId: number;
  refundId: string;
  amountCents: number;
  reason: string | null;
  status: ColumnType<string, string | undefined, string>;
  shippingRefunded: Flag;
  adminUserId: number | null;
  createdAt: Timestamp;
  processedAt: string | null;
  /**
   * The key the provider call carried: a late payment's refund writes it before the call (0019); an
   * admin's refund (`refund-order-<id>`) with the refund, so an order's refund is recorded once.
   */
  idempotencyKey: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The test processor's refunds (local mode), one per idempotency key. */
export interface LocalRefundsTable {
  id: string;
  paymentIntentId: string;
  idempotencyKey: string;
  amountCents: number;
  status: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
}

export type SupportType = "order" | "product" | "shipping" | "refund" | "technical" | "other";

export interface SupportMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  orderNumber: string | null;
  subject: string;
  message: string;
  supportType: ColumnType<SupportType, SupportType | undefined, SupportType>;
  createdAt: Timestamp;
}

export type MailStream = "outbound" | "broadcast";

export interface MailMessagesTable {
  id: Generated<number>;
  stream: MailStream;
  toAddress: string;
  fromAddress: string;
  replyTo: string | null;
  subject: string;
  htmlBody: string;
  textBody: string | null;
  tag: string | null;
  status: "stored" | "sent" | "failed";
  providerMessageId: string | null;
  error: string | null;
  createdAt: Timestamp;
  /** JSON object of extra headers the message carried (List-Unsubscribe on campaign mail); 0004. */
  headers: ColumnType<string | null, string | null | undefined, string | null>;
  /** The key the message was sent under; one stored or sent message per key (decision 0063); 0031. */
  idempotencyKey: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * An idempotency key claimed before Postmark is called (decision 0063); 0031. `attemptedAt` is the
 * last call to the provider under it.
 */
export interface MailSendsTable {
  idempotencyKey: string;
  attemptedAt: string;
  createdAt: Timestamp;
}

/**
 * One row (id 1), moved by triggers inside the writing transaction (decisions 0014, 0027):
 * `version` on every setting write (every page), `list_version` on every product or image write a
 * page shows (the pages listing every product); 0014.
 */
export interface PageVersionTable {
  id: number;
  version: number;
  listVersion: ColumnType<number, number | undefined, number>;
}

/** A product's own page version: the list version of its last shown write (0014). */
export interface ProductPageVersionTable {
  productId: number;
  version: number;
}

/** One row per alert kind (issue 27): the window its last e-mail opened, and what came in since. */
export interface AlertWindowsTable {
  kind: string;
  windowStartedAt: Timestamp;
  held: Generated<number>;
  lastDetail: string | null;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  subscribers: SubscribersTable;
  products: ProductsTable;
  productSizes: ProductSizesTable;
  productVariants: ProductVariantsTable;
  appSettings: AppSettingsTable;
  alertWindows: AlertWindowsTable;
  productImages: ProductImagesTable;
  cartItems: CartItemsTable;
  orders: OrdersTable;
  orderItems: OrderItemsTable;
  shippingLabels: ShippingLabelsTable;
  refunds: RefundsTable;
  supportMessages: SupportMessagesTable;
  mailMessages: MailMessagesTable;
  mailSends: MailSendsTable;
  inventoryHolds: InventoryHoldsTable;
  localPaymentIntents: LocalPaymentIntentsTable;
  localRefunds: LocalRefundsTable;
  paymentEvents: PaymentEventsTable;
  emailCampaigns: EmailCampaignsTable;
  campaignRecipients: CampaignRecipientsTable;
  rateLimits: RateLimitsTable;
  leases: LeasesTable;
  pageVersion: PageVersionTable;
  productPageVersion: ProductPageVersionTable;
  earlyAccessLinks: EarlyAccessLinksTable;
  waitingRoom: WaitingRoomTable;
  waitingRoomPlaces: WaitingRoomPlacesTable;
  events: EventsTable;
  eventHours: EventHoursTable;
  eventRollup: EventRollupTable;
  eventSessions: EventSessionsTable;
  drops: DropsTable;
  soldOutMisses: SoldOutMissesTable;
  passBindings: PassBindingsTable;
  draws: DrawsTable;
  drawEntries: DrawEntriesTable;
}

export type EventKind = "view" | "bag_add" | "checkout_view" | "order" | "payment" | "dropped";

/** One thing a shopper did, recorded by the server (0013, decision 0025). No address, no cookie of its own. */
export interface EventsTable {
  id: Generated<number>;
  kind: EventKind;
  /** For views: "home", "store", "product", "cart", "checkout", … */
  pageKind: string | null;
  /** A keyed hash of the bag's (or signed-in user's) session id; null for a visitor without cookies. */
  sessionKey: string | null;
  /** A cookieless view that starts a visit (no Referer from the store itself): 1. */
  isEntry: ColumnType<number, number | undefined, number>;
  productId: number | null;
  orderId: number | null;
  occurredAt: string;
  /** How many events the row stands for: cookieless views per minute, and `dropped` rows, count more than 1 (0018). */
  count: ColumnType<number, number | undefined, number>;
}

/** The roll-ups: one count per hour (its start, ISO UTC) and metric. */
export interface EventHoursTable {
  hour: string;
  metric: string;
  count: number;
}

/**
 * Row 1: the last event id counted into event_hours (`rolledAt`: when that run began). Row 2: the
 * orders' roll-up, `rolledAt` the instant before which order hours are in event_hours.
 */
export interface EventRollupTable {
  id: number;
  rolledToId: number;
  rolledAt: string;
}

/**
 * The sessions of the store days the roll-up adds to (0017, decision 0034): when each first did
 * what that day, as event_hours counts it. The row with an empty `sessionKey` says the day's
 * sessions are all here.
 */
export interface EventSessionsTable {
  /** The store day, "2026-11-27" (New York). */
  day: string;
  sessionKey: string;
  seenAt: string | null;
  baggedAt: string | null;
  checkoutAt: string | null;
}

/** A signed, single-use, revocable early-access link (0012, decision 0020). */
export interface EarlyAccessLinksTable {
  id: Generated<number>;
  email: string;
  subscriberId: number | null;
  campaignId: number | null;
  createdAt: string;
  openedAt: string | null;
  /** SHA-256 of the pass the opening browser holds in its cookie. */
  passHash: string | null;
  revokedAt: string | null;
}

/** A fixed-window counter shared by every worker (0009). */
export interface RateLimitsTable {
  bucket: string;
  key: string;
  count: number;
  resetAt: string;
}

/** Who runs a singleton chore until when (0009). */
export interface LeasesTable {
  name: string;
  holder: string;
  expiresAt: string;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Product = Selectable<ProductsTable>;
export type NewProduct = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;
export type Order = Selectable<OrdersTable>;

export type CampaignStatus = "queued" | "sending" | "sent" | "partial";
export type RecipientStatus = "pending" | "sent" | "failed" | "skipped";

/** One bulk send to the subscribers (0004). The content is stored sanitised. */
export interface EmailCampaignsTable {
  id: Generated<number>;
  subject: string;
  htmlContent: string;
  /** The admin who sent it; null once that user is deleted. */
  createdBy: number | null;
  status: ColumnType<CampaignStatus, CampaignStatus | undefined, CampaignStatus>;
  total: ColumnType<number, number | undefined, number>;
  sentCount: ColumnType<number, number | undefined, number>;
  failedCount: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  /** Touched by every batch: a "sending" campaign that stops changing was interrupted. */
  updatedAt: Timestamp;
  finishedAt: string | null;
  /** Why the last attempt stopped early (the provider's error), if it did. */
  lastError: string | null;
}

/** A campaign's snapshot of the list: one row per subscriber, UNIQUE(campaign, subscriber). */
export interface CampaignRecipientsTable {
  id: Generated<number>;
  campaignId: number;
  subscriberId: number;
  email: string;
  status: ColumnType<RecipientStatus, RecipientStatus | undefined, RecipientStatus>;
  error: string | null;
  providerMessageId: string | null;
  sentAt: string | null;
}

/** The waiting room's settings and admission clock, one row (0011, decision 0019). */
export interface WaitingRoomTable {
  id: Generated<number>;
  enabled: number;
  opensMinutesBefore: number;
  closesMinutesAfter: number;
  admitPerMinute: number;
  passMinutes: number;
  perAddress: number;
  paused: number;
  dropAt: string | null;
  ended: number;
  drawn: number;
  admittedBase: number;
  admittedSince: string | null;
}

/** One browser's place in the line of one drop; `place` is null until the draw at T-0. */
export interface WaitingRoomPlacesTable {
  id: string;
  dropAt: string;
  place: number | null;
  address: string;
  joinedAt: string;
  admittedAt: string | null;
}

/** One countdown that is or was the launch (0016, decision 0026); the line's peak is kept as it happens. */
export interface DropsTable {
  id: Generated<number>;
  countdownAt: string;
  createdAt: string;
  linePeak: ColumnType<number, number | undefined, number>;
  linePeakAt: string | null;
}

/** A Process Order refused because a product in the bag had sold out (0016, decision 0026). */
export interface SoldOutMissesTable {
  id: Generated<number>;
  productId: number | null;
  productName: string;
  sessionId: string | null;
  customerKey: string | null;
  createdAt: string;
}

/** A pass and the bag it was first used to buy with (0018, decision 0036); written once. */
export interface PassBindingsTable {
  /** "waiting-room:<drop>:<subject>" or "early-access:<link id>". */
  pass: string;
  bagId: string;
  boundAt: string;
}

/** A product sold by a verifiable draw (0023, decision 0047). `units` is JSON: size → units. */
export interface DrawsTable {
  id: Generated<number>;
  productId: number;
  entriesOpenAt: string;
  entriesCloseAt: string;
  claimMinutes: number;
  units: string;
  /** The secret seed, 64 hex characters: never shown before the draw. */
  seed: string;
  commitment: string;
  chain: string;
  entryCount: ColumnType<number, number | undefined, number>;
  beacon: string | null;
  drawnAt: string | null;
  /** Where the admin made it: the origin of e-mailed links when PUBLIC_URL is unset. */
  siteOrigin: string;
  createdAt: string;
}

/** One person's entry in a draw (0023, decision 0047); `n` once confirmed. */
export interface DrawEntriesTable {
  id: Generated<number>;
  drawId: number;
  identityKey: string;
  email: string;
  name: string | null;
  size: string;
  emailHash: string;
  createdAt: string;
  n: number | null;
  chain: string | null;
  confirmedAt: string | null;
  place: number | null;
  wonAt: string | null;
  claimExpiresAt: string | null;
  mailedAt: string | null;
  claimedAt: string | null;
  bagId: string | null;
  orderId: number | null;
  paidAt: string | null;
  lapsedAt: string | null;
}
