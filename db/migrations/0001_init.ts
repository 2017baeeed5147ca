import { sql, type Kysely, type Migration } from "kysely";
import { runStatements, SQLITE_NOW } from "./dialect";

// Instants are ISO-8601 UTC text with milliseconds, the same shape `new Date().toISOString()` gives.
// Written in SQLite's DDL; runStatements rewrites it for PostgreSQL (dialect.ts).
const NOW = SQLITE_NOW;

const statements = [
  `CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL COLLATE NOCASE UNIQUE,
    password_hash TEXT NOT NULL,
    email TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    created_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE INDEX sessions_user_id ON sessions(user_id)`,
  `CREATE TABLE subscribers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL COLLATE NOCASE UNIQUE,
    subscribed_at TEXT NOT NULL DEFAULT ${NOW},
    unsubscribed_at TEXT
  )`,
  `CREATE TABLE products (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    image_url TEXT,
    image_path TEXT,
    inventory INTEGER NOT NULL DEFAULT 0 CHECK (inventory >= 0),
    is_visible INTEGER NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
    promo_code TEXT,
    discount_percent INTEGER NOT NULL DEFAULT 0 CHECK (discount_percent BETWEEN 0 AND 100),
    available_colors TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(available_colors)),
    is_coming_soon INTEGER NOT NULL DEFAULT 0 CHECK (is_coming_soon IN (0, 1)),
    release_date TEXT,
    is_countdown_restricted INTEGER NOT NULL DEFAULT 0 CHECK (is_countdown_restricted IN (0, 1)),
    countdown_release_date TEXT,
    weight REAL NOT NULL DEFAULT 1 CHECK (weight > 0),
    length REAL NOT NULL DEFAULT 12 CHECK (length > 0),
    width REAL NOT NULL DEFAULT 9 CHECK (width > 0),
    height REAL NOT NULL DEFAULT 6 CHECK (height > 0),
    created_at TEXT NOT NULL DEFAULT ${NOW},
    updated_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE TABLE app_settings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE TABLE product_images (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    image_url TEXT,
    image_path TEXT,
    cloudinary_public_id TEXT,
    is_primary INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
    display_order INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE INDEX product_images_product_id ON product_images(product_id, display_order)`,
  `CREATE TABLE cart_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    quantity INTEGER NOT NULL DEFAULT 1 CHECK (quantity > 0),
    created_at TEXT NOT NULL DEFAULT ${NOW},
    updated_at TEXT NOT NULL DEFAULT ${NOW},
    UNIQUE (session_id, product_id)
  )`,
  `CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT,
    customer_email TEXT NOT NULL,
    customer_name TEXT NOT NULL,
    customer_phone TEXT,
    shipping_address TEXT NOT NULL,
    billing_address TEXT,
    subtotal_cents INTEGER NOT NULL CHECK (subtotal_cents >= 0),
    discount_cents INTEGER NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
    tax_cents INTEGER NOT NULL DEFAULT 0 CHECK (tax_cents >= 0),
    shipping_cents INTEGER NOT NULL DEFAULT 0 CHECK (shipping_cents >= 0),
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    status TEXT NOT NULL DEFAULT 'pending'
      CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
    payment_intent_id TEXT UNIQUE,
    refund_status TEXT NOT NULL DEFAULT 'none' CHECK (refund_status IN ('none', 'pending', 'completed')),
    refund_amount_cents INTEGER NOT NULL DEFAULT 0
      CHECK (refund_amount_cents >= 0 AND refund_amount_cents <= total_cents),
    refunded_at TEXT,
    created_at TEXT NOT NULL DEFAULT ${NOW},
    updated_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE INDEX orders_created_at ON orders(created_at)`,
  `CREATE TABLE order_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    product_id INTEGER REFERENCES products(id) ON DELETE SET NULL,
    product_name TEXT NOT NULL,
    product_price_cents INTEGER NOT NULL CHECK (product_price_cents >= 0),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    created_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE INDEX order_items_order_id ON order_items(order_id)`,
  `CREATE TABLE shipping_labels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    label_url TEXT NOT NULL DEFAULT '',
    tracking_number TEXT NOT NULL DEFAULT '',
    carrier TEXT NOT NULL,
    cost_cents INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'created',
    error_message TEXT,
    created_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
  `CREATE INDEX shipping_labels_order_id ON shipping_labels(order_id)`,
  `CREATE TABLE refunds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    refund_id TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    reason TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    shipping_refunded INTEGER NOT NULL DEFAULT 0 CHECK (shipping_refunded IN (0, 1)),
    admin_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL DEFAULT ${NOW},
    processed_at TEXT
  )`,
  `CREATE INDEX refunds_order_id ON refunds(order_id)`,
  `CREATE TABLE support_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    order_number TEXT,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    support_type TEXT NOT NULL DEFAULT 'other'
      CHECK (support_type IN ('order', 'product', 'shipping', 'refund', 'technical', 'other')),
    created_at TEXT NOT NULL DEFAULT ${NOW}
  )`,
];

const tables = [
  "support_messages",
  "refunds",
  "shipping_labels",
  "order_items",
  "orders",
  "cart_items",
  "product_images",
  "app_settings",
  "products",
  "subscribers",
  "sessions",
  "users",
];

export const init: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, statements);
  },
  async down(db: Kysely<unknown>) {
    for (const table of tables) await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  },
};
