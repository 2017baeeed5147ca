import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { clientIpOf } from "#server/http/requests/client-ip";
import { shopperContext } from "#server/http/gate/early-access";
import { BOT_FIELD, BOT_REFUSAL, honeypotFilled } from "#server/contracts/bots";
import { cardErrors } from "#server/contracts/checkout-card";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import {
  completeAddress,
  keepOrDefault,
  NO_TAX,
  type TaxView,
  toRateView,
  valuesFrom,
  type CheckoutValues,
} from "#server/contracts/checkout-form";
import { customerErrors } from "#server/contracts/checkout-validation";
import { getAppContext } from "#server/boot";
import { type ActionNotice, ENHANCED_FIELD } from "#server/contracts/cart";
import { CHECKOUT_MESSAGES, customerInfoSchema, orderNumberOf, shippingMethodSchema } from "#server/contracts/checkout";
import type { CheckoutActionData, CheckoutLoaderData, Country } from "#server/contracts/checkout-page";
import { toCents, toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { DomainError, EmptyCart, NotFound, TooMany } from "#server/errors";
import { viewCheckout } from "#server/services/cart/cart";
import { orderForPayment, processOrder, quoteShipping } from "#server/services/checkout/checkout";
import { completeHostedCheckout, startHostedCheckout } from "#server/services/checkout/hosted-checkout";
import { payWithTestCard } from "#server/services/checkout/local-payments";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { orderPagePathForBag } from "#server/services/orders/order-page-token";
import { countryOf, SHIPPING_DESTINATIONS } from "#server/services/checkout/shipping-countries";
import { estimateTax, storedTaxView } from "#server/services/checkout/tax";
import { cartSessionIdOf } from "#server/http/cart-session";
import { redirectWithToast } from "#server/http/flash";
import { requestBag } from "#server/http/request-bag";
import { statusOf } from "#server/http/error-status";
import { siteOrigin } from "#server/http/requests/site-origin";
import { isConnectionLost, reportConnectionLost, STORE_BUSY_HEADERS } from "#server/http/store-busy";
import { STORE_BUSY_MESSAGE } from "#server/contracts/store-busy";
import { readForm } from "#server/http/requests/request-body";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";
import { logError } from "#server/observability/log";

/**
 * The page doors of the checkout. Without JavaScript the services answer these form posts: `rates`
 * re-renders the form with the shipping options, `process` holds the bag and sends the buyer to
 * /checkout/pay/{paymentIntentId}, whose card form pays in local test mode. With JavaScript the
 * screen asks the REST doors for rates and tax, and posts the same form's `process` here by a
 * fetcher (ENHANCED_FIELD), which gets the held order back as data for the card form on the page.
 */

const paymentModeOf = (ctx: AppContext) => ctx.config.payments.mode;

const emptyCartRedirect = (ctx: AppContext, request: Request) =>
  redirectWithToast(ctx, request, "/", { kind: "info", title: CHECKOUT_MESSAGES.emptyCartTitle, description: CHECKOUT_MESSAGES.emptyCart });

const isEmptyCart = (error: unknown) => error instanceof EmptyCart;

/** /checkout: the bag to summarise, or home with "Cart is empty" (a flash: JS or not). */
export async function checkoutLoader({ request, context }: LoaderFunctionArgs) {
  const ctx = await shopperContext(await getAppContext(), request);
  // The same read the root loader's badge counts (request-bag.ts).
  const bag = viewCheckout(ctx, await requestBag(ctx, request, context), await cartSessionIdOf(ctx, request));
  if (bag.lines.length === 0) throw await emptyCartRedirect(ctx, request);
  const payments = ctx.config.payments;
  const payment: CheckoutLoaderData["payment"] =
    payments.mode === "stripe" ? { mode: "stripe", publishableKey: payments.publishableKey } : { mode: "test" };
  return data<CheckoutLoaderData>({ bag, countries: SHIPPING_DESTINATIONS, payment }, { headers: NO_STORE_HEADERS });
}

export type { CheckoutActionData };

/** Rates, the method kept or chosen, and the tax with that method's shipping; null rates when the address is incomplete. */
async function quote(ctx: AppContext, sessionId: string | null, values: CheckoutValues, chosen: string) {
  const address = completeAddress(values);
  if (!address) return { rates: null, shippingMethod: "", tax: NO_TAX };
  const rates = (await quoteShipping(ctx, sessionId, address)).map(toRateView);
  const shippingMethod = keepOrDefault(rates, chosen);
  const shippingCost = rates.find((rate) => rate.key === shippingMethod)?.cost ?? 0;
  const tax = await estimateTax(ctx, { sessionId, ...address, shippingCents: toCents(shippingCost) });
  return { rates, shippingMethod, tax };
}

const errorNotice = (description: string): ActionNotice => ({ kind: "error", title: CHECKOUT_UI.errorTitle, description });

type Reply = (fields: Partial<CheckoutActionData>, status?: number, headers?: HeadersInit) => ReturnType<typeof data<CheckoutActionData>>;

const missingNotice: ActionNotice = { kind: "error", title: CHECKOUT_MESSAGES.missingTitle, description: CHECKOUT_MESSAGES.missing };

/** The details and method as Process Order takes them, or the fields to mark. */
function orderFields(values: CheckoutValues, chosen: string) {
  const customer = customerInfoSchema.safeParse(values);
  const method = shippingMethodSchema.safeParse(chosen);
  if (customer.success && method.success) return { customer: customer.data, shippingMethod: method.data };
  const errors = customerErrors(values);
  if (!method.success) errors.shippingMethod = [CHECKOUT_MESSAGES.missing];
  return { errors };
}

/** The checkout form: intent `rates` or `process`, posted by a browser without JavaScript or by the page's fetcher. */
export async function checkoutAction({ request, context }: ActionFunctionArgs) {
  const ctx = await shopperContext(await getAppContext(), request);
  const sessionId = await cartSessionIdOf(ctx, request);
  const form = await readForm(request);
  const values = valuesFrom(form);
  const chosen = String(form.get("shippingMethod") ?? "");
  const reply: Reply = (fields, status = 200, headers = {}) =>
    data<CheckoutActionData>(
      { values, rates: null, shippingMethod: chosen, tax: NO_TAX, errors: {}, notice: null, order: null, ...fields },
      { status, headers: { ...NO_STORE_HEADERS, ...headers } },
    );

  // A filled honeypot: the form comes back as it was, nothing quoted or held (decision 0020).
  if (honeypotFilled(form.get(BOT_FIELD))) return reply({ notice: errorNotice(BOT_REFUSAL) }, 400);
  if (form.get(ENHANCED_FIELD) === "1" && form.get("intent") === "process") {
    return processForScript(ctx, reply, {
      sessionId,
      values,
      chosen,
      clientIp: clientIpOf(context),
      origin: siteOrigin(request, ctx.config),
    });
  }

  // The rates as they are now, for every answer that re-renders the form.
  let quoted: Awaited<ReturnType<typeof quote>> = { rates: null, shippingMethod: "", tax: NO_TAX };
  try {
    quoted = await quote(ctx, sessionId, values, chosen);
  } catch (error) {
    if (isEmptyCart(error)) return emptyCartRedirect(ctx, request);
    // The database out of reach for a moment: the 503 page that says to try again (decision 0041).
    if (isConnectionLost(error)) throw error;
    if (!(error instanceof DomainError)) logError("The request failed", error);
    const notice =
      error instanceof DomainError
        ? errorNotice(error.message)
        : { kind: "error" as const, title: CHECKOUT_UI.shippingFailedTitle, description: CHECKOUT_UI.shippingFailed };
    return reply({ notice }, error instanceof DomainError ? statusOf(error) : 502);
  }
  const noRates: ActionNotice = { kind: "error", title: CHECKOUT_MESSAGES.noRatesTitle, description: CHECKOUT_MESSAGES.noRates };

  if (form.get("intent") !== "process") {
    const errors = customerErrors(values);
    if (!quoted.rates) {
      const addressErrors = Object.fromEntries(
        Object.entries(errors).filter(([field]) => ["street", "city", "state", "zipCode", "country"].includes(field)),
      );
      return reply(
        {
          errors: addressErrors,
          notice: { kind: "error", title: CHECKOUT_MESSAGES.missingTitle, description: CHECKOUT_UI.addressIncomplete },
        },
        400,
      );
    }
    if (quoted.rates.length === 0) return reply({ ...quoted, notice: noRates });
    return reply(quoted);
  }

  // Without JavaScript the first Process Order may come before the options were ever shown (no
  // "Calculate shipping" pressed): the method is then the one the spec preselects, ground_saver or
  // else the cheapest (docs/spec.md §4), as it is already in the summary, rather than a refusal.
  const fields = orderFields(values, chosen || quoted.shippingMethod);
  if (fields.errors) return reply({ ...quoted, errors: fields.errors, notice: missingNotice }, 400);
  // A method the new rates no longer offer is refused by the service itself (rates re-checked).
  try {
    const order = await processOrder(ctx, {
      sessionId,
      ...fields,
      clientIp: clientIpOf(context),
      siteOrigin: siteOrigin(request, ctx.config),
    });
    return redirect(`/checkout/pay/${encodeURIComponent(order.paymentIntentId)}`);
  } catch (error) {
    if (isEmptyCart(error)) return emptyCartRedirect(ctx, request);
    if (error instanceof DomainError)
      return reply({ ...quoted, errors: error.fieldErrors, notice: errorNotice(error.message) }, statusOf(error));
    if (isConnectionLost(error)) throw error;
    logError("The request failed", error);
    return reply({ ...quoted, notice: errorNotice(CHECKOUT_MESSAGES.processFailed) }, 500);
  }
}

/**
 * Process Order from the page's fetcher: the service's answer as data, as POST /api/process-order
 * gives it to other callers. Nothing is quoted first (the service quotes again itself) and every
 * refusal is a notice, an emptied bag too: the page's script reloads the bag after a 400 or 409.
 */
async function processForScript(
  ctx: AppContext,
  reply: Reply,
  input: { sessionId: string | null; values: CheckoutValues; chosen: string; clientIp: string; origin: string },
) {
  const fields = orderFields(input.values, input.chosen);
  if (fields.errors) return reply({ errors: fields.errors, notice: missingNotice }, 400);
  try {
    const order = await processOrder(ctx, { sessionId: input.sessionId, ...fields, clientIp: input.clientIp, siteOrigin: input.origin });
    const holdMsLeft = Date.parse(order.orderSummary.holdExpiresAt) - ctx.clock.now().getTime();
    return reply({ order: { ...order, holdMsLeft } }, 201);
  } catch (error) {
    if (error instanceof DomainError) {
      const headers: HeadersInit = error instanceof TooMany ? { "Retry-After": String(error.retryAfterSeconds) } : {};
      return reply({ errors: error.fieldErrors, notice: errorNotice(error.message) }, statusOf(error), headers);
    }
    if (isConnectionLost(error)) {
      reportConnectionLost(error);
      return reply({ notice: errorNotice(STORE_BUSY_MESSAGE) }, 503, STORE_BUSY_HEADERS);
    }
    logError("The request failed", error);
    return reply({ notice: errorNotice(CHECKOUT_MESSAGES.processFailed) }, 500);
  }
}

// ---------------------------------------------------------------------------------------------
// /checkout/pay/{paymentIntentId}: the payment step without JavaScript.
// ---------------------------------------------------------------------------------------------

/** The pending order behind a payment, for the browser that placed it only (its bag cookie). */
async function ownOrderForPayment(ctx: AppContext, request: Request, paymentIntentId: string) {
  const order = await orderForPayment(ctx, await cartSessionIdOf(ctx, request), paymentIntentId);
  if (!order) throw new Response("Payment not found", { status: 404 });
  return order;
}

export interface PayLoaderData {
  mode: "test" | "stripe";
  paymentIntentId: string;
  orderNumber: string;
  /** Who and where the order ships to, as the checkout form had it. */
  details: CheckoutValues;
  country: Country;
  items: { name: string; imageUrl: string | null; unitPrice: number; quantity: number; total: number }[];
  subtotal: number;
  shipping: number;
  tax: TaxView;
  total: number;
  /** Whole seconds of the hold left when the page was made; 0 once it has run out. */
  secondsLeft: number;
}

export async function payLoader({ request, params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const paymentIntentId = params.paymentIntentId ?? "";
  const order = await ownOrderForPayment(ctx, request, paymentIntentId);
  if (order.paidAt) throw redirect(`/checkout-success?payment_intent=${encodeURIComponent(paymentIntentId)}`);
  const { items } = order;
  const address = {
    street: "",
    city: "",
    state: "",
    zipCode: "",
    country: "US",
    ...(JSON.parse(order.shippingAddress) as Partial<Record<string, string>>),
  };
  const details: CheckoutValues = { email: order.customerEmail, name: order.customerName, phone: order.customerPhone ?? "", ...address };
  const expiresAt = order.holdExpiresAt ? Date.parse(order.holdExpiresAt) : 0;
  const secondsLeft = order.status === "pending" ? Math.max(0, Math.floor((expiresAt - ctx.clock.now().getTime()) / 1000)) : 0;
  return data<PayLoaderData>(
    {
      mode: paymentModeOf(ctx),
      paymentIntentId,
      orderNumber: orderNumberOf(order),
      details,
      country: countryOf(details.country),
      items: items.map((i) => ({
        name: i.productName,
        imageUrl: i.imageUrl,
        unitPrice: toDollars(i.productPriceCents),
        quantity: i.quantity,
        total: toDollars(i.totalCents),
      })),
      subtotal: toDollars(order.subtotalCents),
      shipping: toDollars(order.shippingCents),
      tax: storedTaxView({ taxCents: order.taxCents, subtotalCents: order.subtotalCents, country: details.country, state: details.state }),
      total: toDollars(order.totalCents),
      secondsLeft,
    },
    { headers: NO_STORE_HEADERS },
  );
}

export interface PayActionData {
  notice: ActionNotice;
  errors: Partial<Record<"cardNumber" | "expiry" | "cvc", string>>;
}

/** Pays with a test card (local mode), confirms, and shows the outcome on /checkout-success. */
export async function payAction({ request, params }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const paymentIntentId = params.paymentIntentId ?? "";
  const form = await readForm(request);
  const card = {
    cardNumber: String(form.get("cardNumber") ?? ""),
    expiry: String(form.get("expiry") ?? ""),
    cvc: String(form.get("cvc") ?? ""),
  };
  const failed = (
    description: string,
    status: number,
    errors: PayActionData["errors"] = {},
    title: string = CHECKOUT_UI.paymentFailedTitle,
  ) => data<PayActionData>({ notice: { kind: "error", title, description }, errors }, { status, headers: NO_STORE_HEADERS });
  const success = redirect(`/checkout-success?payment_intent=${encodeURIComponent(paymentIntentId)}`);

  const order = await ownOrderForPayment(ctx, request, paymentIntentId);
  if (order.paidAt) return success;
  if (paymentModeOf(ctx) === "stripe") {
    // Without JavaScript the Payment Element cannot run: the buyer pays on Stripe's own page.
    try {
      return redirect(await startHostedCheckout(ctx, paymentIntentId, siteOrigin(request, ctx.config)), 303);
    } catch (error) {
      if (error instanceof DomainError) return failed(error.message, statusOf(error));
      logError("The request failed", error);
      return failed(CHECKOUT_UI.unexpected, 502, {}, CHECKOUT_UI.paymentErrorTitle);
    }
  }
  const errors = cardErrors(card);
  if (Object.keys(errors).length > 0) return failed(Object.values(errors)[0]!, 400, errors);
  try {
    const payment = await payWithTestCard(ctx, { paymentIntentId }, card.cardNumber);
    if (!payment.paid) return failed(payment.message ?? CHECKOUT_UI.paymentFailedFallback, 402);
    return success;
  } catch (error) {
    if (error instanceof DomainError) {
      const fieldErrors = error.fieldErrors.cardNumber ? { cardNumber: error.fieldErrors.cardNumber[0] } : {};
      return failed(error.message, statusOf(error), fieldErrors);
    }
    if (isConnectionLost(error)) throw error;
    logError("The request failed", error);
    return failed(CHECKOUT_UI.unexpected, 500, {}, CHECKOUT_UI.paymentErrorTitle);
  }
}

// ---------------------------------------------------------------------------------------------
// /checkout-success?payment_intent=...: where Stripe returns, and where the pay page lands.
// ---------------------------------------------------------------------------------------------

export type SuccessData =
  /** `orderUrl`: the order page, for the browser that placed the order only (absent for anyone else). */
  | { state: "paid"; orderNumber: string; orderUrl?: string }
  | { state: "pending"; orderNumber: string }
  | { state: "failed" | "cancelled"; orderNumber: string; message: string }
  | { state: "missing" };

/** Asks the provider (idempotently, through the one confirmation service) how the payment went. */
export async function successLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const query = new URL(request.url).searchParams;
  const paymentIntentId = query.get("payment_intent")?.trim() ?? "";
  // Stripe's hosted Checkout returns with the session instead (buyers without JavaScript).
  const sessionId = paymentModeOf(ctx) === "stripe" ? (query.get("session_id")?.trim() ?? "") : "";
  const reply = (value: SuccessData) => data<SuccessData>(value, { headers: NO_STORE_HEADERS });
  const tooLong = paymentIntentId.length > 255 || sessionId.length > 255;
  if ((!paymentIntentId && !sessionId) || tooLong) return reply({ state: "missing" });
  try {
    const outcome = sessionId ? await completeHostedCheckout(ctx, sessionId) : await confirmPayment(ctx, paymentIntentId);
    if (!outcome) return reply({ state: "missing" });
    if (outcome.status === "paid" && outcome.firstTime) {
      // This very request emptied the bag, but the layout's loader ran beside this one and counted
      // it full: show the outcome once more, so the header's bag is empty too. Not a loop: a
      // second confirmation is never the first time.
      throw redirect(`/checkout-success?payment_intent=${encodeURIComponent(outcome.paymentIntentId)}`, { headers: NO_STORE_HEADERS });
    }
    if (outcome.status === "paid") {
      const orderUrl = await orderPagePathForBag(ctx, outcome.orderId, await cartSessionIdOf(ctx, request));
      return reply({ state: "paid", orderNumber: outcome.orderNumber, ...(orderUrl ? { orderUrl } : {}) });
    }
    if (outcome.status === "pending") return reply({ state: outcome.status, orderNumber: outcome.orderNumber });
    return reply({ state: outcome.status, orderNumber: outcome.orderNumber, message: outcome.message });
  } catch (error) {
    if (error instanceof NotFound) return reply({ state: "missing" });
    throw error;
  }
}
