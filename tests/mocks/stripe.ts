import crypto from "node:crypto";
import { http, HttpResponse, type DefaultBodyType } from "msw";

/** Stripe's API as the `stripe` SDK reaches it. Tests override these with `mockServer.use(...)`. */
export const STRIPE_API = "https://api.stripe.com";

type Params = Record<string, unknown>;

/** A PaymentIntent as the API returns it (the fields the store and the SDK look at, and their neighbours). */
export interface MockPaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  automatic_payment_methods: { allow_redirects: "always"; enabled: boolean } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: "automatic_async";
  client_secret: string;
  confirmation_method: "automatic";
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: null;
  payment_method: string | null;
  payment_method_types: string[];
  receipt_email: string | null;
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "succeeded" | "canceled";
}

export interface MockCheckoutSession {
  id: string;
  object: "checkout.session";
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: "payment";
  payment_intent: string | null;
  payment_status: "unpaid" | "paid";
  status: "open" | "complete" | "expired";
  success_url: string;
  url: string | null;
  /** Not part of Stripe's answer: what the session's PaymentIntent will carry. */
  payment_intent_data: { metadata: Record<string, string>; receipt_email: string | null };
}

export interface MockRefund {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: "succeeded";
}

/** One request the SDK made, as the API saw it. */
export interface SeenStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Params;
}

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
const unix = () => Math.floor(Date.now() / 1000);

/** A fresh, unpaid PaymentIntent. */
function newIntent(id: string, amount: number, currency: string, metadata: Record<string, string>): MockPaymentIntent {
  return {
    id,
    object: "payment_intent",
    amount,
    amount_capturable: 0,
    amount_received: 0,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_${crypto.randomBytes(12).toString("hex")}`,
    confirmation_method: "automatic",
    created: unix(),
    currency,
    customer: null,
    description: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata,
    next_action: null,
    payment_method: null,
    payment_method_types: ["card", "link"],
    receipt_email: null,
    status: "requires_payment_method",
  };
}

/**
 * What the mocked Stripe account holds. Tests drive the payments (`succeed`, `decline`,
 * `cancel`) as the buyer's browser and Stripe would, and read `requests` to see what was sent.
 */
export const stripeState = {
  intents: new Map<string, MockPaymentIntent>(),
  refunds: new Map<string, MockRefund>(),
  sessions: new Map<string, MockCheckoutSession>(),
  requests: [] as SeenStripeRequest[],
  /** Idempotency keys seen: the first answer is replayed for the same key, as Stripe does. */
  idempotent: new Map<string, { path: string; params: string; status: number; body: DefaultBodyType }>(),

  reset() {
    this.intents.clear();
    this.refunds.clear();
    this.sessions.clear();
    this.requests.length = 0;
    this.idempotent.clear();
  },
  intent(id: string): MockPaymentIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`The Stripe mock has no payment intent ${id}`);
    return intent;
  },
  /** The buyer pays with a card that works (Stripe.js confirming the Payment Element). */
  succeed(id: string): MockPaymentIntent {
    const intent = this.intent(id);
    Object.assign(intent, {
      status: "succeeded",
      amount_received: intent.amount,
      latest_charge: randomId("ch"),
      payment_method: randomId("pm"),
      last_payment_error: null,
    });
    return intent;
  },
  /** The buyer's card is declined: the intent can be paid again with another card. */
  decline(id: string, message = "Your card was declined."): MockPaymentIntent {
    const intent = this.intent(id);
    Object.assign(intent, {
      status: "requires_payment_method",
      payment_method: null,
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message },
    });
    return intent;
  },
  /** Canceled outside the store (the dashboard, or Stripe's own expiry). */
  cancel(id: string, reason = "abandoned"): MockPaymentIntent {
    return Object.assign(this.intent(id), { status: "canceled", canceled_at: unix(), cancellation_reason: reason });
  },
  /**
   * The buyer pays on Stripe's hosted Checkout page: the session makes its own PaymentIntent
   * (carrying `payment_intent_data`), which succeeds, and the session completes.
   */
  paySession(id: string): MockCheckoutSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`The Stripe mock has no checkout session ${id}`);
    const intentId = randomId("pi");
    this.intents.set(intentId, {
      ...newIntent(intentId, session.amount_total, session.currency, session.payment_intent_data.metadata),
      receipt_email: session.payment_intent_data.receipt_email,
    });
    this.succeed(intentId);
    return Object.assign(session, { payment_intent: intentId, payment_status: "paid", status: "complete", url: null });
  },
  /** Requests to one path (and method), in order. */
  seen(method: string, path: string | RegExp): SeenStripeRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)));
  },
};

/**
 * A webhook event as Stripe sends it, carrying the intent's current state. Sign its JSON with
 * `stripe.webhooks.generateTestHeaderString({ payload, secret })`.
 */
export function stripeEvent(type: string, intentId: string | null, id = randomId("evt")) {
  return {
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: unix(),
    data: { object: intentId ? structuredClone(stripeState.intent(intentId)) : {} },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** A checkout.session.* webhook event carrying the session's current state. */
export function stripeSessionEvent(type: string, sessionId: string, id = randomId("evt")) {
  return { ...stripeEvent(type, null, id), data: { object: publicSession(stripeState.sessions.get(sessionId)!) } };
}

/** A session as the API answers it (without the mock's own bookkeeping). */
function publicSession(session: MockCheckoutSession) {
  const { payment_intent_data: _own, ...rest } = structuredClone(session);
  return rest;
}

/** Stripe's error body: `{ error: { type, code, message, param } }`, which the SDK turns into its error classes. */
export function stripeError(status: number, type: string, message: string, extra: { code?: string; param?: string } = {}) {
  return HttpResponse.json({ error: { type, message, ...extra } }, { status, headers: { "Request-Id": randomId("req") } });
}

/** Stripe's form encoding (`metadata[orderId]=7`, `items[0][price]=…`) back into objects. */
export function parseStripeForm(body: string): Params {
  const out: Params = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node = out as Record<string, unknown>;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

type Answer = { status: number; body: DefaultBodyType };
const ok = (body: DefaultBodyType): Answer => ({ status: 200, body });
const fail = (status: number, type: string, message: string, extra: { code?: string; param?: string } = {}): Answer => ({
  status,
  body: { error: { type, message, ...extra } },
});

/**
 * Wraps one endpoint: checks the secret key as Stripe does, records the request, and replays the
 * first answer for a repeated Idempotency-Key (refusing the key with other parameters).
 */
function endpoint(method: "GET" | "POST", answer: (params: Params, pathParams: Record<string, string>) => Answer) {
  return async ({ request, params: pathParams }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
    const url = new URL(request.url);
    const auth = request.headers.get("authorization") ?? "";
    if (!/^Bearer sk_(test|live)_\S+$/.test(auth)) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided: " + auth.replace(/^Bearer /, "").slice(0, 8) + "***");
    }
    const params = method === "GET" ? Object.fromEntries(url.searchParams) : parseStripeForm(await request.text());
    const idempotencyKey = request.headers.get("idempotency-key");
    stripeState.requests.push({ method, path: url.pathname, idempotencyKey, params });
    const headers = { "Request-Id": randomId("req"), "Stripe-Version": request.headers.get("stripe-version") ?? "2026-10-28.endive" };

    if (method === "POST" && idempotencyKey) {
      const earlier = stripeState.idempotent.get(idempotencyKey);
      const fingerprint = JSON.stringify(params);
      if (earlier) {
        if (earlier.path !== url.pathname || earlier.params !== fingerprint) {
          return stripeError(
            400,
            "idempotency_error",
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          );
        }
        return HttpResponse.json(earlier.body, {
          status: earlier.status,
          headers: { ...headers, "Idempotent-Replayed": "true", "Idempotency-Key": idempotencyKey },
        });
      }
      const result = answer(params, pathParams as Record<string, string>);
      stripeState.idempotent.set(idempotencyKey, { path: url.pathname, params: fingerprint, status: result.status, body: result.body });
      return HttpResponse.json(result.body, { status: result.status, headers: { ...headers, "Idempotency-Key": idempotencyKey } });
    }
    const result = answer(params, pathParams as Record<string, string>);
    return HttpResponse.json(result.body, { status: result.status, headers });
  };
}

/** The intent's latest charge as `expand[]=latest_charge` answers it. */
function chargeOf(intent: MockPaymentIntent) {
  const refunded = [...stripeState.refunds.values()].filter((r) => r.payment_intent === intent.id).reduce((sum, r) => sum + r.amount, 0);
  return {
    id: intent.latest_charge,
    object: "charge",
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: refunded,
    currency: intent.currency,
    paid: true,
    payment_intent: intent.id,
    refunded: refunded >= intent.amount,
    status: "succeeded",
  };
}

const missing = (kind: string, id: string) =>
  fail(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" });

export const stripeHandlers = [
  http.get(`${STRIPE_API}/v1/balance`, () =>
    HttpResponse.json({ object: "balance", livemode: false, available: [{ amount: 0, currency: "usd" }], pending: [] }),
  ),

  http.post(
    `${STRIPE_API}/v1/payment_intents`,
    endpoint("POST", (params) => {
      if (params.amount === undefined)
        return fail(400, "invalid_request_error", "Missing required param: amount.", { code: "parameter_missing", param: "amount" });
      if (params.currency === undefined)
        return fail(400, "invalid_request_error", "Missing required param: currency.", { code: "parameter_missing", param: "currency" });
      const amount = Number(params.amount);
      if (!Number.isInteger(amount))
        return fail(400, "invalid_request_error", "Invalid integer: " + String(params.amount), {
          code: "parameter_invalid_integer",
          param: "amount",
        });
      const currency = String(params.currency).toLowerCase();
      if (currency === "usd" && amount < 50) {
        return fail(400, "invalid_request_error", "Amount must be at least $0.50 usd", { code: "amount_too_small", param: "amount" });
      }
      const id = randomId("pi");
      const automatic = params.automatic_payment_methods as { enabled?: string } | undefined;
      const intent: MockPaymentIntent = {
        ...newIntent(id, amount, currency, (params.metadata as Record<string, string> | undefined) ?? {}),
        automatic_payment_methods: automatic ? { allow_redirects: "always", enabled: automatic.enabled === "true" } : null,
        description: typeof params.description === "string" ? params.description : null,
        receipt_email: typeof params.receipt_email === "string" ? params.receipt_email : null,
      };
      stripeState.intents.set(id, intent);
      return ok(structuredClone(intent));
    }),
  ),

  http.get(
    `${STRIPE_API}/v1/payment_intents/:id`,
    endpoint("GET", (params, { id }) => {
      const intent = stripeState.intents.get(id!);
      if (!intent) return missing("payment_intent", id!);
      const answer: Record<string, unknown> = { ...structuredClone(intent) };
      // `expand[]=latest_charge`: the charge object, with what its refunds took back (pending ones too).
      if (Object.values(params).includes("latest_charge") && intent.latest_charge) answer.latest_charge = chargeOf(intent);
      return ok(answer);
    }),
  ),

  http.get(
    `${STRIPE_API}/v1/refunds`,
    endpoint("GET", (params) => {
      const intentId = typeof params.payment_intent === "string" ? params.payment_intent : null;
      const data = [...stripeState.refunds.values()]
        .filter((r) => !intentId || r.payment_intent === intentId)
        .reverse()
        .slice(0, Number(params.limit ?? 10));
      return ok({ object: "list", url: "/v1/refunds", has_more: false, data: structuredClone(data) });
    }),
  ),

  http.post(
    `${STRIPE_API}/v1/payment_intents/:id/cancel`,
    endpoint("POST", (params, { id }) => {
      const intent = stripeState.intents.get(id!);
      if (!intent) return missing("payment_intent", id!);
      if (intent.status === "succeeded" || intent.status === "canceled") {
        return fail(
          400,
          "invalid_request_error",
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
          { code: "payment_intent_unexpected_state" },
        );
      }
      stripeState.cancel(intent.id, typeof params.cancellation_reason === "string" ? params.cancellation_reason : "requested_by_customer");
      return ok(structuredClone(intent));
    }),
  ),

  http.post(
    `${STRIPE_API}/v1/checkout/sessions`,
    endpoint("POST", (params) => {
      if (params.mode !== "payment")
        return fail(400, "invalid_request_error", "Missing required param: mode.", { code: "parameter_missing", param: "mode" });
      if (typeof params.success_url !== "string") {
        return fail(400, "invalid_request_error", "Missing required param: success_url.", {
          code: "parameter_missing",
          param: "success_url",
        });
      }
      const lines = Object.values(
        (params.line_items as Record<string, { quantity?: string; price_data?: { currency?: string; unit_amount?: string } }>) ?? {},
      );
      if (lines.length === 0)
        return fail(400, "invalid_request_error", "Missing required param: line_items.", {
          code: "parameter_missing",
          param: "line_items",
        });
      const amount = lines.reduce((sum, line) => sum + Number(line.price_data?.unit_amount) * Number(line.quantity ?? 1), 0);
      const paymentData = (params.payment_intent_data as { metadata?: Record<string, string>; receipt_email?: string } | undefined) ?? {};
      const id = `cs_test_${crypto.randomBytes(24).toString("hex")}`;
      const session: MockCheckoutSession = {
        id,
        object: "checkout.session",
        amount_total: amount,
        cancel_url: typeof params.cancel_url === "string" ? params.cancel_url : null,
        client_reference_id: typeof params.client_reference_id === "string" ? params.client_reference_id : null,
        created: unix(),
        currency: lines[0]!.price_data?.currency ?? "usd",
        customer_email: typeof params.customer_email === "string" ? params.customer_email : null,
        expires_at: Number(params.expires_at ?? unix() + 24 * 3600),
        livemode: false,
        metadata: (params.metadata as Record<string, string> | undefined) ?? {},
        mode: "payment",
        payment_intent: null,
        payment_status: "unpaid",
        status: "open",
        success_url: params.success_url,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        payment_intent_data: { metadata: paymentData.metadata ?? {}, receipt_email: paymentData.receipt_email ?? null },
      };
      stripeState.sessions.set(id, session);
      return ok(publicSession(session));
    }),
  ),

  http.get(
    `${STRIPE_API}/v1/checkout/sessions/:id`,
    endpoint("GET", (_params, { id }) => {
      const session = stripeState.sessions.get(id!);
      return session ? ok(publicSession(session)) : missing("checkout.session", id!);
    }),
  ),

  http.post(
    `${STRIPE_API}/v1/checkout/sessions/:id/expire`,
    endpoint("POST", (_params, { id }) => {
      const session = stripeState.sessions.get(id!);
      if (!session) return missing("checkout.session", id!);
      if (session.status !== "open") {
        return fail(
          400,
          "invalid_request_error",
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          {
            code: "checkout_session_not_open",
          },
        );
      }
      Object.assign(session, { status: "expired", url: null });
      return ok(publicSession(session));
    }),
  ),

  http.post(
    `${STRIPE_API}/v1/refunds`,
    endpoint("POST", (params) => {
      const intentId = typeof params.payment_intent === "string" ? params.payment_intent : null;
      if (!intentId) {
        return fail(
          400,
          "invalid_request_error",
          "One of the following params should be provided for this request: payment_intent or charge.",
          {
            code: "parameter_missing",
          },
        );
      }
      const intent = stripeState.intents.get(intentId);
      if (!intent) return missing("payment_intent", intentId);
      if (intent.status !== "succeeded" || !intent.latest_charge) {
        return fail(400, "invalid_request_error", `This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
          code: "charge_not_refundable",
        });
      }
      const refunded = [...stripeState.refunds.values()].filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);
      const left = intent.amount - refunded;
      const amount = params.amount === undefined ? left : Number(params.amount);
      if (!Number.isInteger(amount) || amount <= 0)
        return fail(400, "invalid_request_error", "Invalid positive integer", { code: "parameter_invalid_integer", param: "amount" });
      if (amount > left) {
        const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
        return fail(
          400,
          "invalid_request_error",
          `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
          {
            code: "amount_too_large",
            param: "amount",
          },
        );
      }
      const refund: MockRefund = {
        id: randomId("re"),
        object: "refund",
        amount,
        balance_transaction: randomId("txn"),
        charge: intent.latest_charge,
        created: unix(),
        currency: intent.currency,
        metadata: (params.metadata as Record<string, string> | undefined) ?? {},
        payment_intent: intentId,
        reason: typeof params.reason === "string" ? params.reason : null,
        status: "succeeded",
      };
      stripeState.refunds.set(refund.id, refund);
      return ok(structuredClone(refund));
    }),
  ),
];
