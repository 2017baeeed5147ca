import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  type ClientActionFunctionArgs,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useNavigate,
  useRevalidator,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useHydrated } from "remix-utils/use-hydrated";
import type { CheckoutActionData } from "#server/contracts/checkout-page";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout-messages";
import { checkoutAction, checkoutLoader, type SuccessData } from "#server/http/doors/checkout-door";
import { requirePassForPage, requirePassForPurchase } from "#server/http/gate/waiting-room-gate";
import { AddressFields, ContactFields } from "#app/components/checkout/customer-fields";
import { ErrorBox } from "#app/components/error-box";
import { HoneypotField } from "#app/components/honeypot-field";
import { BOT_FIELD } from "#server/contracts/honeypot";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { completeAddress, EMPTY_VALUES, type CheckoutValues } from "#server/contracts/checkout-form";
import { addDollars } from "#server/contracts/money";
import { OrderSummary, type SummaryLine } from "#app/components/checkout/order-summary";
import { choiceLabel } from "#server/contracts/sizes-view";
import { FORM_ID, loadOrderPayment, PaymentSection } from "#app/components/checkout/payment-section";
import type { ProcessedOrder } from "#app/components/checkout/processed-order";
import { Spinner } from "#app/components/spinner";
import { ShippingOptions } from "#app/components/checkout/shipping-options";
import { useCheckoutQuote } from "#app/components/checkout/use-checkout-quote";
import { refusedProcessOrder, useProcessOrder } from "#app/components/checkout/use-process-order";
import { dismissToast, followToNextPage, notify } from "#app/components/toasts";
import { PaidToastText } from "#app/components/checkout/paid-order-link";
import { Button } from "#app/components/ui/button";
import { useNoticeToast } from "#app/lib/use-notice-toast";
import { afterProcessOrder } from "#app/lib/revalidate";
import type { RenderMemoHandle } from "#app/render-memo.server";
import type { RootData } from "#app/root";

export const loader = async (args: LoaderFunctionArgs) => (await requirePassForPage(args.request, args.context), checkoutLoader(args));

// The page is its loaders' data and nothing else: rendered once for every shopper with the same bag.
export const handle: RenderMemoHandle = { sameDataSamePage: true };
export const action = async (args: ActionFunctionArgs) => (await requirePassForPurchase(args.request), checkoutAction(args));

/** Process Order's post never ends on the error page: a refusal the action did not word is worded here. */
export const clientAction = async ({ serverAction }: ClientActionFunctionArgs): Promise<CheckoutActionData> => {
  try {
    return await serverAction<CheckoutActionData>();
  } catch (error) {
    // A redirect goes on.
    if (error instanceof Response) throw error;
    return refusedProcessOrder(error);
  }
};

export const meta: MetaFunction<typeof loader, { root: RootData }> = ({ matches }) => {
  const brand = matches.find((match) => match.id === "root")?.data?.brand.name ?? "Store";
  // No robots noindex (decision 0031): a visitor without a bag, a crawler included, is redirected
  // home by the loader and never gets this page; only shoppers did, and Lighthouse's SEO check.
  return [{ title: `Checkout | ${brand}` }, { name: "description", content: `${brand}: your bag, shipping and payment.` }];
};

// After a successful payment the bag is empty by design. The badge must be refreshed, but this
// loader must not run again then: its empty-bag redirect would greet the buyer with "Cart is empty".
let paidAndLeaving = false;
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  !paidAndLeaving && (afterProcessOrder(args) ?? args.defaultShouldRevalidate);

/** docs/spec.md §9: home 2 s after a successful payment. */
const HOME_AFTER_PAYMENT_MS = 2000;
/** The payment's notice stays a while at home: long enough to read the number and press its link. */
const PAID_NOTICE_MS = 12_000;

const loadValidation = () => import("#server/contracts/checkout-validation");
// The review of the details replaces the form after Process Order: fetched with the payment step.
const loadDetailsReview = () => import("#app/components/checkout/details-review");
const DetailsReview = lazy(() => loadDetailsReview().then((module) => ({ default: module.DetailsReview })));
/** What Process Order needs, fetched on the form's first focus: it is there when pressed. */
const prefetchProcessOrder = () => Promise.all([loadValidation(), loadDetailsReview(), loadOrderPayment()]);

export default function CheckoutPage() {
  const { bag, countries, payment } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const supportEmail = useRouteLoaderData<RootData>("root")?.brand.supportEmail ?? "";
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  useNoticeToast(result?.notice, result);

  const [values, setValues] = useState<CheckoutValues>(result?.values ?? EMPTY_VALUES);
  const [errors, setErrors] = useState<Record<string, string[] | undefined>>(result?.errors ?? {});
  /** Process Order found fields missing: the spec's "Missing information", inline above the form. */
  const [missing, setMissing] = useState(false);
  const stillMissing = missing && Object.values(errors).some(Boolean);
  const address = useMemo(() => completeAddress(values), [values]);
  const bagKey = bag.lines.map((line) => `${line.productId}x${line.quantity}`).join(",");
  const quote = useCheckoutQuote({ address, bagKey, subtotal: bag.subtotal, initial: result });
  const [order, setOrder] = useState<ProcessedOrder | null>(null);
  const sentBag = useRef(bagKey);
  const processing = useProcessOrder((answer) => {
    if (answer.order) {
      // The hold's end on this browser's clock, however far off it is from the server's.
      setOrder({ ...answer.order, deadline: Date.now() + answer.order.holdMsLeft, bagKey: sentBag.current });
      return;
    }
    const notice = answer.notice ?? { title: CHECKOUT_UI.errorTitle, description: CHECKOUT_MESSAGES.processFailed };
    notify.error(notice.title, notice.description);
    if (answer.errors.shippingMethod) quote.refresh();
  });
  const [paidNumber, setPaidNumber] = useState<string | null>(null);
  // The order page's link, asked of /checkout-success's loader once paid: that door gives it to the
  // browser whose bag placed the order and to nobody else, so it is never shared nor guessed here.
  const orderLink = useFetcher<SuccessData>();
  const orderUrl = orderLink.data?.state === "paid" ? (orderLink.data.orderUrl ?? null) : null;
  const paidToast = useRef<string | null>(null);

  useEffect(() => {
    paidAndLeaving = false;
  }, []);

  useEffect(() => {
    if (paidNumber === null) return;
    const timer = window.setTimeout(() => navigate("/"), HOME_AFTER_PAYMENT_MS);
    return () => window.clearTimeout(timer);
  }, [paidNumber, navigate]);

  // The bag may change in another tab while this one is at the card step (issue 25): looked at
  // again whenever this tab comes back, so the check below tells the shopper before they pay.
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (!order || paidNumber !== null) return;
    // Focus that went into one of this page's own frames (the card fields of Stripe's Payment
    // Element) and comes back is not the shopper coming back: looking then raced the payment's
    // own revalidation, which aborted it (an error in the console).
    let inOwnFrame = false;
    let pending: number | undefined;
    const left = () => {
      // The frame becomes the active element just after the window's blur.
      pending = window.setTimeout(() => (inOwnFrame = document.activeElement instanceof HTMLIFrameElement));
    };
    const look = (event: Event) => {
      if (event.type === "focus" && inOwnFrame) {
        inOwnFrame = false;
        return;
      }
      if (document.visibilityState === "visible") revalidate.current();
    };
    document.addEventListener("visibilitychange", look);
    window.addEventListener("focus", look);
    window.addEventListener("blur", left);
    return () => {
      window.clearTimeout(pending);
      document.removeEventListener("visibilitychange", look);
      window.removeEventListener("focus", look);
      window.removeEventListener("blur", left);
    };
  }, [order, paidNumber]);

  // The bag changed (from the cart dropdown) under a held order: that order no longer matches.
  useEffect(() => {
    if (order && order.bagKey !== bagKey && paidNumber === null) {
      setOrder(null);
      notify.info("Your bag changed", "Process the order again to reserve the new items.");
    }
  }, [bagKey, order, paidNumber]);

  const summary = order?.orderSummary;
  const subtotal = summary?.subtotal ?? bag.subtotal;
  const shipping = summary?.shipping ?? quote.selectedRate?.cost ?? 0;
  const tax = summary ? { taxRate: summary.taxRate, taxAmount: summary.tax, taxLabel: summary.taxLabel } : quote.tax;
  const total = summary?.total ?? addDollars(subtotal, shipping, tax.taxAmount);
  const lines: SummaryLine[] = bag.lines.map(({ productId, imageUrl, srcSet, size, color, ...line }) => ({
    ...line,
    // One line per product, size and colour in a bag.
    id: `${productId}-${size ?? ""}-${color ?? ""}`,
    choice: choiceLabel(size, color),
    image: { imageUrl, imagePath: null, srcSet },
  }));

  const change = (name: keyof CheckoutValues, value: string) => {
    setValues((was) => ({ ...was, [name]: value }));
    setErrors((was) => (was[name] ? { ...was, [name]: undefined } : was));
  };

  /** With JavaScript: checks the fields here, then posts them to this page's action. */
  async function processOrder(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!processing.claim()) return;
    const form = event.currentTarget;
    // The schema is fetched when it is first needed, not with the page (decision 0029).
    const { customerErrors } = await loadValidation();
    const found: Record<string, string[]> = customerErrors(values);
    if (!quote.selectedRate) found.shippingMethod = [CHECKOUT_MESSAGES.missing];
    // Rendered before the focus moves: the first invalid field must already say so.
    flushSync(() => {
      setErrors(found);
      setMissing(Object.keys(found).length > 0);
    });
    if (Object.keys(found).length > 0) {
      processing.release();
      // Inline, not a toast: the fields say what is missing, and a toast lay over them on a phone.
      // The focus goes to the first field to fix (the page scrolls to it), which reads its message.
      form.querySelector<HTMLElement>("[aria-invalid=true], [name=shippingMethod]")?.focus();
      return;
    }
    sentBag.current = bagKey;
    processing.send({
      ...values,
      shippingMethod: quote.selected,
      [BOT_FIELD]: String(new FormData(form).get(BOT_FIELD) ?? ""),
    });
  }

  /** The payment's notice, raised again under the same id when the order's link arrives. */
  function raisePaidNotice(orderNumber: string, url: string | null) {
    const id = paidToast.current ?? undefined;
    const shown = notify.success(
      CHECKOUT_UI.successTitle,
      <PaidToastText orderNumber={orderNumber} orderUrl={url} onOpen={() => dismissToast(shown)} />,
      { id, duration: PAID_NOTICE_MS },
    );
    // The page goes home in a moment (docs/spec.md §7): the notice goes with the buyer.
    followToNextPage(shown);
    paidToast.current = shown;
  }

  function paid(orderNumber: string) {
    setPaidNumber(orderNumber);
    raisePaidNotice(orderNumber, null);
    paidIntent.current = order?.paymentIntentId ?? null;
    paidAndLeaving = true;
    revalidator.revalidate();
  }

  // Asked once the badge's revalidation is done: a fetcher load to a route not yet discovered,
  // started while a revalidation was under way, came back as a 404 that replaced the page.
  const paidIntent = useRef<string | null>(null);
  useEffect(() => {
    if (paidIntent.current === null || revalidator.state !== "idle" || orderLink.state !== "idle" || orderLink.data) return;
    const intent = paidIntent.current;
    paidIntent.current = null;
    orderLink.load(`/checkout-success?payment_intent=${encodeURIComponent(intent)}`);
  }, [paidNumber, revalidator.state, orderLink]);

  useEffect(() => {
    if (orderUrl && paidNumber !== null) raisePaidNotice(paidNumber, orderUrl);
    // Once per link: the notice is raised again only when the link arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderUrl]);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 pt-6 pb-20 sm:px-6 lg:px-8 lg:pt-8">
      <Button asChild variant="ghost" size="sm" className="-ml-3 text-muted-foreground hover:text-foreground">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Back to Store
        </Link>
      </Button>
      <h1 className="mt-4 mb-8 font-display text-[clamp(3.25rem,10vw,5.5rem)] leading-[0.85] uppercase lg:mb-10">Checkout</h1>

      {/* An action's notice inline, for a browser without JavaScript (with it, a toast shows too). */}
      {result?.notice ? (
        <ErrorBox
          title={result.notice.title}
          message={result.notice.description}
          testId="checkout-notice"
          className="mb-8 p-4"
          iconClassName="text-red-400"
        />
      ) : null}

      <div className="grid grid-cols-1 items-start gap-8 lg:grid-cols-[minmax(0,0.9fr)_minmax(0,1.1fr)] lg:gap-12">
        <OrderSummary lines={lines} totals={{ subtotal, shipping, tax, total }} className="lg:sticky lg:top-24" />

        <div className="space-y-12 rounded-lg border border-border bg-card p-5 sm:p-8">
          {order !== null || paidNumber !== null ? (
            <Suspense fallback={<Spinner className="size-6" label="Loading" />}>
              <DetailsReview
                values={values}
                countries={countries}
                rate={quote.selectedRate}
                onChange={
                  paidNumber === null
                    ? () => {
                        // Back to the form with the focus on its first field, not on the page's body.
                        flushSync(() => setOrder(null));
                        document.getElementById("checkout-email")?.focus();
                      }
                    : null
                }
              />
            </Suspense>
          ) : (
            <form
              id={FORM_ID}
              method="post"
              action="/checkout"
              noValidate
              onSubmit={processOrder}
              onFocus={() => void prefetchProcessOrder()}
              className="space-y-12"
            >
              <HoneypotField idPrefix="checkout" />
              {stillMissing ? (
                <ErrorBox
                  title={CHECKOUT_MESSAGES.missingTitle}
                  message={CHECKOUT_MESSAGES.missing}
                  testId="checkout-missing"
                  className="p-4"
                  iconClassName="text-red-400"
                />
              ) : null}
              <ContactFields values={values} errors={errors} onChange={change} />
              <AddressFields values={values} errors={errors} onChange={change} countries={countries} hydrated={hydrated} />
              <ShippingOptions
                rates={quote.rates}
                selected={quote.selected}
                onSelect={(key) => {
                  quote.setSelected(key);
                  setErrors((was) => ({ ...was, shippingMethod: undefined }));
                }}
                loading={quote.loading}
                hydrated={hydrated}
                error={errors.shippingMethod?.[0]}
              />
            </form>
          )}
          <PaymentSection
            payment={payment}
            order={order}
            paidNumber={paidNumber}
            orderUrl={orderUrl}
            total={total}
            processing={processing.busy}
            supportEmail={supportEmail}
            confirmExtras={{ customerInfo: values, shippingMethod: quote.selected, shippingCost: shipping }}
            onPaid={paid}
            onExpire={() => {
              setOrder(null);
              notify.info(CHECKOUT_UI.holdExpiredTitle, CHECKOUT_UI.holdExpired);
            }}
          />
        </div>
      </div>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
