-- index campaign_recipients_status
CREATE INDEX campaign_recipients_status ON campaign_recipients(campaign_id, status);

-- index draw_entries_identity
CREATE UNIQUE INDEX draw_entries_identity ON draw_entries (draw_id, identity_key);

-- index draw_entries_number
CREATE UNIQUE INDEX draw_entries_number ON draw_entries (draw_id, n) WHERE n IS NOT NULL;

-- index draws_product
CREATE UNIQUE INDEX draws_product ON draws (product_id);

-- index early_access_links_campaign
CREATE UNIQUE INDEX early_access_links_campaign ON early_access_links (campaign_id, subscriber_id)
      WHERE campaign_id IS NOT NULL;

-- index early_access_links_email
CREATE INDEX early_access_links_email ON early_access_links (email);

-- index email_campaigns_created_at
CREATE INDEX email_campaigns_created_at ON email_campaigns(created_at);

-- index events_occurred_at
CREATE INDEX events_occurred_at ON events (occurred_at);

-- index inventory_holds_open
CREATE INDEX inventory_holds_open ON inventory_holds(status, expires_at);

-- index local_refunds_payment_intent_id
CREATE INDEX local_refunds_payment_intent_id ON local_refunds (payment_intent_id);

-- index mail_messages_created_at
CREATE INDEX mail_messages_created_at ON mail_messages(created_at);

-- index mail_messages_idempotency_key
CREATE UNIQUE INDEX mail_messages_idempotency_key ON mail_messages (idempotency_key) WHERE idempotency_key IS NOT NULL AND status <> 'failed';

-- index order_items_order_id
CREATE INDEX order_items_order_id ON order_items(order_id);

-- index orders_address_key
CREATE INDEX orders_address_key ON orders (address_key);

-- index orders_checkout_session_id
CREATE UNIQUE INDEX orders_checkout_session_id ON orders(checkout_session_id) WHERE checkout_session_id IS NOT NULL;

-- index orders_created_at
CREATE INDEX orders_created_at ON orders(created_at);

-- index orders_customer_key
CREATE INDEX orders_customer_key ON orders (customer_key);

-- index orders_page_token_hash
CREATE UNIQUE INDEX orders_page_token_hash ON orders (page_token_hash) WHERE page_token_hash IS NOT NULL;

-- index orders_report
CREATE INDEX orders_report ON orders (created_at, is_test, paid_at, total_cents);

-- index orders_unfulfilled
CREATE INDEX orders_unfulfilled ON orders(fulfil_next_at) WHERE paid_at IS NOT NULL AND fulfilled_at IS NULL;

-- index orders_unpaid_hold_expiry
CREATE INDEX orders_unpaid_hold_expiry ON orders(hold_expires_at) WHERE paid_at IS NULL;

-- index orders_unpaid_session
CREATE INDEX orders_unpaid_session ON orders(session_id) WHERE paid_at IS NULL;

-- index product_images_product_id
CREATE INDEX product_images_product_id ON product_images(product_id, display_order);

-- index rate_limits_reset_at
CREATE INDEX rate_limits_reset_at ON rate_limits (reset_at);

-- index refunds_created_at
CREATE INDEX refunds_created_at ON refunds (created_at);

-- index refunds_idempotency_key
CREATE UNIQUE INDEX refunds_idempotency_key ON refunds (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- index refunds_order_id
CREATE INDEX refunds_order_id ON refunds(order_id);

-- index sessions_user_id
CREATE INDEX sessions_user_id ON sessions(user_id);

-- index shipping_labels_idempotency_key
CREATE UNIQUE INDEX shipping_labels_idempotency_key ON shipping_labels (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- index shipping_labels_order_id
CREATE INDEX shipping_labels_order_id ON shipping_labels(order_id);

-- index shipping_labels_tracking_number
CREATE INDEX shipping_labels_tracking_number ON shipping_labels(tracking_number);

-- index sold_out_misses_created_at
CREATE INDEX sold_out_misses_created_at ON sold_out_misses (created_at);

-- index subscribers_active_newest
CREATE INDEX subscribers_active_newest ON subscribers(subscribed_at DESC, id DESC) WHERE unsubscribed_at IS NULL;

-- index waiting_room_places_address
CREATE INDEX waiting_room_places_address ON waiting_room_places (drop_at, address);

-- index waiting_room_places_joined
CREATE INDEX waiting_room_places_joined ON waiting_room_places (drop_at, joined_at);

-- table alert_windows
CREATE TABLE alert_windows (
      kind TEXT PRIMARY KEY,
      window_started_at TEXT NOT NULL,
      held INTEGER NOT NULL DEFAULT 0,
      last_detail TEXT
    ) WITHOUT ROWID;

-- table app_settings
CREATE TABLE app_settings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  );

-- table campaign_recipients
CREATE TABLE campaign_recipients (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        campaign_id INTEGER NOT NULL REFERENCES email_campaigns(id) ON DELETE CASCADE,
        subscriber_id INTEGER NOT NULL REFERENCES subscribers(id) ON DELETE CASCADE,
        email TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
        error TEXT,
        provider_message_id TEXT,
        sent_at TEXT,
        UNIQUE (campaign_id, subscriber_id)
      );

-- table cart_items
CREATE TABLE "cart_items" (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    quantity INTEGER NOT NULL DEFAULT 1 CHECK (quantity > 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    size TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '',
    UNIQUE (session_id, product_id, size, color)
  );

-- table draw_entries
CREATE TABLE draw_entries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      draw_id INTEGER NOT NULL REFERENCES draws (id) ON DELETE CASCADE,
      identity_key TEXT NOT NULL,
      email TEXT NOT NULL,
      name TEXT,
      size TEXT NOT NULL,
      email_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      n INTEGER,
      chain TEXT,
      confirmed_at TEXT,
      place INTEGER,
      won_at TEXT,
      claim_expires_at TEXT,
      mailed_at TEXT,
      claimed_at TEXT,
      bag_id TEXT,
      order_id INTEGER REFERENCES orders (id) ON DELETE SET NULL,
      paid_at TEXT,
      lapsed_at TEXT
    );

-- table draws
CREATE TABLE draws (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      entries_open_at TEXT NOT NULL,
      entries_close_at TEXT NOT NULL,
      claim_minutes INTEGER NOT NULL CHECK (claim_minutes >= 1),
      units TEXT NOT NULL CHECK (json_valid(units)),
      seed TEXT NOT NULL,
      commitment TEXT NOT NULL,
      chain TEXT NOT NULL,
      entry_count INTEGER NOT NULL DEFAULT 0,
      beacon TEXT,
      drawn_at TEXT,
      site_origin TEXT NOT NULL,
      created_at TEXT NOT NULL
    );

-- table drops
CREATE TABLE drops (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      countdown_at TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      line_peak INTEGER NOT NULL DEFAULT 0,
      line_peak_at TEXT
    );

-- table early_access_links
CREATE TABLE early_access_links (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL,
      subscriber_id INTEGER REFERENCES subscribers (id) ON DELETE SET NULL,
      campaign_id INTEGER REFERENCES email_campaigns (id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      opened_at TEXT,
      pass_hash TEXT,
      revoked_at TEXT
    );

-- table email_campaigns
CREATE TABLE email_campaigns (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        subject TEXT NOT NULL,
        html_content TEXT NOT NULL,
        created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'partial')),
        total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
        sent_count INTEGER NOT NULL DEFAULT 0 CHECK (sent_count >= 0),
        failed_count INTEGER NOT NULL DEFAULT 0 CHECK (failed_count >= 0),
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        finished_at TEXT,
        last_error TEXT
      );

-- table event_hours
CREATE TABLE event_hours (
      hour TEXT NOT NULL,
      metric TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (metric, hour)
    ) WITHOUT ROWID;

-- table event_rollup
CREATE TABLE event_rollup (
      id INTEGER PRIMARY KEY,
      rolled_to_id INTEGER NOT NULL,
      rolled_at TEXT NOT NULL
    );

-- table event_sessions
CREATE TABLE event_sessions (
      day TEXT NOT NULL,
      session_key TEXT NOT NULL,
      seen_at TEXT,
      bagged_at TEXT,
      checkout_at TEXT,
      PRIMARY KEY (day, session_key)
    ) WITHOUT ROWID;

-- table events
CREATE TABLE events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      page_kind TEXT,
      session_key TEXT,
      is_entry INTEGER NOT NULL DEFAULT 0,
      product_id INTEGER,
      order_id INTEGER,
      occurred_at TEXT NOT NULL
    , count INTEGER NOT NULL DEFAULT 1);

-- table inventory_holds
CREATE TABLE "inventory_holds" (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        status TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'sold', 'released')),
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), size TEXT NOT NULL DEFAULT '', color TEXT NOT NULL DEFAULT '',
        UNIQUE (order_id, product_id, size, color)
      );

-- table leases
CREATE TABLE leases (
      name TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );

-- table local_payment_intents
CREATE TABLE local_payment_intents (
        id TEXT PRIMARY KEY,
        client_secret TEXT NOT NULL UNIQUE,
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        currency TEXT NOT NULL DEFAULT 'usd',
        status TEXT NOT NULL DEFAULT 'requires_payment_method',
        last_error TEXT,
        order_id INTEGER,
        idempotency_key TEXT UNIQUE,
        refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0 AND refunded_cents <= amount_cents),
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );

-- table local_refunds
CREATE TABLE local_refunds (
      id TEXT PRIMARY KEY,
      payment_intent_id TEXT NOT NULL,
      idempotency_key TEXT NOT NULL UNIQUE,
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      status TEXT NOT NULL DEFAULT 'succeeded',
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
    );

-- table mail_messages
CREATE TABLE mail_messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      stream TEXT NOT NULL CHECK (stream IN ('outbound', 'broadcast')),
      to_address TEXT NOT NULL,
      from_address TEXT NOT NULL,
      reply_to TEXT,
      subject TEXT NOT NULL,
      html_body TEXT NOT NULL,
      text_body TEXT,
      tag TEXT,
      status TEXT NOT NULL CHECK (status IN ('stored', 'sent', 'failed')),
      provider_message_id TEXT,
      error TEXT,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
    , headers TEXT, idempotency_key TEXT);

-- table mail_sends
CREATE TABLE mail_sends (
      idempotency_key TEXT PRIMARY KEY,
      attempted_at TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
    );

-- table order_items
CREATE TABLE order_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    product_id INTEGER REFERENCES products(id) ON DELETE SET NULL,
    product_name TEXT NOT NULL,
    product_price_cents INTEGER NOT NULL CHECK (product_price_cents >= 0),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  , size TEXT, color TEXT);

-- table orders
CREATE TABLE orders (
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
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  , hold_expires_at TEXT, paid_at TEXT, shipping_method TEXT, confirmation_sent_at TEXT, fulfilled_at TEXT, fulfil_attempts INTEGER NOT NULL DEFAULT 0, fulfil_next_at TEXT, checkout_session_id TEXT, is_test INTEGER NOT NULL DEFAULT 0 CHECK (is_test IN (0, 1)), customer_key TEXT, address_key TEXT, page_nonce TEXT, page_token_hash TEXT, shipped_at TEXT, delivered_at TEXT, cancelled_at TEXT, shipped_mailed_at TEXT, delivered_mailed_at TEXT, cancelled_mailed_at TEXT, refund_mailed_at TEXT, site_origin TEXT, refund_claimed_at TEXT);

-- table page_version
CREATE TABLE page_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, list_version INTEGER NOT NULL DEFAULT 0);

-- table pass_bindings
CREATE TABLE pass_bindings (
      pass TEXT PRIMARY KEY,
      bag_id TEXT NOT NULL,
      bound_at TEXT NOT NULL
    ) WITHOUT ROWID;

-- table payment_events
CREATE TABLE payment_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        payment_intent_id TEXT,
        received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );

-- table product_images
CREATE TABLE product_images (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    image_url TEXT,
    image_path TEXT,
    cloudinary_public_id TEXT,
    is_primary INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
    display_order INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  );

-- table product_page_version
CREATE TABLE product_page_version (product_id INTEGER PRIMARY KEY, version INTEGER NOT NULL);

-- table product_sizes
CREATE TABLE product_sizes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        label_key TEXT NOT NULL,
        position INTEGER NOT NULL,
        inventory INTEGER NOT NULL DEFAULT 0 CHECK (inventory >= 0),
        UNIQUE (product_id, label_key)
      );

-- table product_variants
CREATE TABLE product_variants (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        size TEXT NOT NULL DEFAULT '',
        color TEXT NOT NULL,
        inventory INTEGER NOT NULL DEFAULT 0 CHECK (inventory >= 0),
        UNIQUE (product_id, size, color)
      );

-- table products
CREATE TABLE products (
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
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  , max_per_customer INTEGER CHECK (max_per_customer IS NULL OR max_per_customer >= 1), stock_per_color INTEGER NOT NULL DEFAULT 0 CHECK (stock_per_color IN (0, 1)), size_guide TEXT);

-- table rate_limits
CREATE TABLE rate_limits (
      bucket TEXT NOT NULL,
      key TEXT NOT NULL,
      count INTEGER NOT NULL,
      reset_at TEXT NOT NULL,
      PRIMARY KEY (bucket, key)
    ) WITHOUT ROWID;

-- table refunds
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    refund_id TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    reason TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    shipping_refunded INTEGER NOT NULL DEFAULT 0 CHECK (shipping_refunded IN (0, 1)),
    admin_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    processed_at TEXT
  , idempotency_key TEXT);

-- table sessions
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  );

-- table shipping_labels
CREATE TABLE shipping_labels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    label_url TEXT NOT NULL DEFAULT '',
    tracking_number TEXT NOT NULL DEFAULT '',
    carrier TEXT NOT NULL,
    cost_cents INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'created',
    error_message TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  , idempotency_key TEXT, provider_ref TEXT);

-- table sold_out_misses
CREATE TABLE sold_out_misses (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER REFERENCES products (id) ON DELETE SET NULL,
      product_name TEXT NOT NULL,
      session_id TEXT,
      customer_key TEXT,
      created_at TEXT NOT NULL
    );

-- table subscribers
CREATE TABLE subscribers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL COLLATE NOCASE UNIQUE,
    subscribed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    unsubscribed_at TEXT
  );

-- table support_messages
CREATE TABLE support_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    order_number TEXT,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    support_type TEXT NOT NULL DEFAULT 'other'
      CHECK (support_type IN ('order', 'product', 'shipping', 'refund', 'technical', 'other')),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  );

-- table users
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL COLLATE NOCASE UNIQUE,
    password_hash TEXT NOT NULL,
    email TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  );

-- table waiting_room
CREATE TABLE waiting_room (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      enabled INTEGER NOT NULL DEFAULT 1,
      opens_minutes_before INTEGER NOT NULL DEFAULT 15,
      closes_minutes_after INTEGER NOT NULL DEFAULT 120,
      admit_per_minute INTEGER NOT NULL DEFAULT 300,
      pass_minutes INTEGER NOT NULL DEFAULT 15,
      per_address INTEGER NOT NULL DEFAULT 20,
      paused INTEGER NOT NULL DEFAULT 0,
      drop_at TEXT,
      ended INTEGER NOT NULL DEFAULT 0,
      drawn INTEGER NOT NULL DEFAULT 0,
      admitted_base REAL NOT NULL DEFAULT 0,
      admitted_since TEXT
    );

-- table waiting_room_places
CREATE TABLE waiting_room_places (
      id TEXT PRIMARY KEY,
      drop_at TEXT NOT NULL,
      place INTEGER,
      address TEXT NOT NULL,
      joined_at TEXT NOT NULL,
      admitted_at TEXT,
      UNIQUE (drop_at, place)
    );

-- trigger page_version_app_settings_delete
CREATE TRIGGER page_version_app_settings_delete AFTER DELETE ON app_settings
          BEGIN UPDATE page_version SET version = version + 1 WHERE id = 1; END;

-- trigger page_version_app_settings_insert
CREATE TRIGGER page_version_app_settings_insert AFTER INSERT ON app_settings
          BEGIN UPDATE page_version SET version = version + 1 WHERE id = 1; END;

-- trigger page_version_app_settings_update
CREATE TRIGGER page_version_app_settings_update AFTER UPDATE ON app_settings
          BEGIN UPDATE page_version SET version = version + 1 WHERE id = 1; END;

-- trigger product_page_version_product_images_delete
CREATE TRIGGER product_page_version_product_images_delete AFTER DELETE ON product_images
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (OLD.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_images_insert
CREATE TRIGGER product_page_version_product_images_insert AFTER INSERT ON product_images
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_images_update
CREATE TRIGGER product_page_version_product_images_update AFTER UPDATE ON product_images
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_sizes_delete
CREATE TRIGGER product_page_version_product_sizes_delete AFTER DELETE ON product_sizes
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (OLD.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_sizes_insert
CREATE TRIGGER product_page_version_product_sizes_insert AFTER INSERT ON product_sizes
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_sizes_update
CREATE TRIGGER product_page_version_product_sizes_update AFTER UPDATE ON product_sizes WHEN NOT (OLD.inventory > 0 AND NEW.inventory > 0 AND OLD.label IS NEW.label)
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_variants_delete
CREATE TRIGGER product_page_version_product_variants_delete AFTER DELETE ON product_variants
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (OLD.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_variants_insert
CREATE TRIGGER product_page_version_product_variants_insert AFTER INSERT ON product_variants
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_product_variants_update
CREATE TRIGGER product_page_version_product_variants_update AFTER UPDATE ON product_variants WHEN NOT (OLD.inventory > 0 AND NEW.inventory > 0)
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.product_id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_products_delete
CREATE TRIGGER product_page_version_products_delete AFTER DELETE ON products
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (OLD.id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_products_insert
CREATE TRIGGER product_page_version_products_insert AFTER INSERT ON products
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;

-- trigger product_page_version_products_update
CREATE TRIGGER product_page_version_products_update AFTER UPDATE ON products WHEN NOT (OLD.inventory <> NEW.inventory AND OLD.inventory > 10 AND NEW.inventory > 10 AND OLD.updated_at IS NEW.updated_at)
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (NEW.id, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END;
