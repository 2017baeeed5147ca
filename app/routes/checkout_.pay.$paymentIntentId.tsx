import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { ArrowLeft, Clock, Lock } from "lucide-react";
import { formatUsd } from "#server/contracts/money";
import { payAction, payLoader } from "#server/http/doors/checkout-door";
import { CardFields, TestModeNotice } from "#app/components/checkout/card-fields";
import { SectionTitle } from "#app/components/checkout/customer-fields";
import { StaticHoldCountdown } from "#app/components/checkout/hold-countdown";
import { PaymentAlert } from "#app/components/checkout/payment-alert";
import { DetailsReview } from "#app/components/checkout/details-review";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { OrderSummary } from "#app/components/checkout/order-summary";
import { PurchaseDisclaimer, PurchaseDisclaimerFallback } from "#app/components/checkout/purchase-disclaimer";
import { Button } from "#app/components/ui/button";
import { useNoticeToast } from "#app/lib/use-notice-toast";
import type { RootData } from "#app/root";
import { ORDER_BUTTON_CLASS } from "#server/contracts/checkout-form";

/**
 * /checkout/pay/{paymentIntentId}: the payment step that works without JavaScript. The checkout's
 * `process` step lands here with the units held; the card form posts to this route's action,
 * which pays through the local test processor and confirms the order (the same services as
 * POST /api/local-payments/confirm). The trailing underscore keeps it out of /checkout's layout.
 */
export const loader = (args: LoaderFunctionArgs) => payLoader(args);
export const action = (args: ActionFunctionArgs) => payAction(args);

export const meta: MetaFunction<typeof loader, { root: RootData }> = ({ matches }) => {
  const brand = matches.find((match) => match.id === "root")?.data?.brand.name ?? "Store";
  return [{ title: `Payment | ${brand}` }, { name: "robots", content: "noindex" }];
};

export default function PayPage() {
  const order = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const supportEmail = useRouteLoaderData<RootData>("root")?.brand.supportEmail ?? "";
  const paying = useNavigation().state === "submitting";
  useNoticeToast(result?.notice, result);

  const lines = order.items.map((item, index) => ({
    id: index,
    name: item.name,
    image: { imageUrl: item.imageUrl, imagePath: null, srcSet: null },
    unitPrice: item.unitPrice,
    originalPrice: null,
    quantity: item.quantity,
    total: item.total,
    notice: null,
  }));

  return (
    <div className="mx-auto w-full max-w-6xl px-4 pt-6 pb-20 sm:px-6 lg:px-8 lg:pt-8">
      <Button asChild variant="ghost" size="sm" className="-ml-3 text-muted-foreground hover:text-foreground">
        <Link to="/checkout">
          <ArrowLeft aria-hidden="true" />
          Back to Checkout
        </Link>
      </Button>
      <h1 className="mt-4 mb-8 font-display text-[clamp(3.25rem,10vw,5.5rem)] leading-[0.85] uppercase lg:mb-10">Payment</h1>

      <div className="grid grid-cols-1 items-start gap-8 lg:grid-cols-[minmax(0,0.9fr)_minmax(0,1.1fr)] lg:gap-12">
        <OrderSummary
          lines={lines}
          totals={{ subtotal: order.subtotal, shipping: order.shipping, tax: order.tax, total: order.total }}
          className="lg:sticky lg:top-24"
        />

        {/* On a phone the card form comes first: after a refused card the page reloads at its top. */}
        <section
          id="payment"
          aria-labelledby="payment-title"
          className="order-first space-y-6 rounded-lg border border-border bg-card p-5 sm:p-8 lg:order-none"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <SectionTitle id="payment-title">Card details</SectionTitle>
            {/* With Stripe's page the order is numbered after the payment made there: no number yet. */}
            {order.mode === "test" ? (
              <p className="text-sm text-muted-foreground">
                Order <span className="font-mono font-semibold tracking-wider text-foreground">#{order.orderNumber}</span>
              </p>
            ) : null}
          </div>

          {result?.notice ? <PaymentAlert failure={{ title: result.notice.title, message: result.notice.description }} /> : null}
          <DetailsReview values={order.details} countries={[order.country]} rate={null} onChange={null} />

          {order.secondsLeft === 0 ? (
            <Expired />
          ) : order.mode === "stripe" ? (
            <>
              <StaticHoldCountdown seconds={order.secondsLeft} />
              <p className="text-sm leading-relaxed text-muted-foreground">
                All sales are final. Please read our <PurchaseDisclaimer supportEmail={supportEmail} /> before you buy.
              </p>
              <PurchaseDisclaimerFallback supportEmail={supportEmail} returnTo="payment" />
              <HostedPayment total={order.total} paying={paying} />
            </>
          ) : (
            <>
              <StaticHoldCountdown seconds={order.secondsLeft} />
              <p className="text-sm leading-relaxed text-muted-foreground">
                All sales are final. Please read our <PurchaseDisclaimer supportEmail={supportEmail} /> before you buy.
              </p>
              <PurchaseDisclaimerFallback supportEmail={supportEmail} returnTo="payment" />
              <Form method="post" noValidate className="space-y-5" aria-label="Card payment" data-testid="payment-form">
                <TestModeNotice />
                <CardFields errors={result?.errors ?? {}} />
                <Button type="submit" size={null} className={ORDER_BUTTON_CLASS} disabled={paying}>
                  <Lock aria-hidden="true" />
                  {paying ? "Processing..." : `Complete Order - ${formatUsd(order.total)}`}
                </Button>
              </Form>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function Expired() {
  return (
    <div className="space-y-4 rounded-md border border-border bg-background/60 p-5 text-sm" data-testid="hold-expired">
      <p className="flex items-center gap-2 font-medium">
        <Clock className="size-4 text-muted-foreground" aria-hidden="true" />
        {CHECKOUT_UI.holdExpiredTitle}
      </p>
      <p className="text-muted-foreground">{CHECKOUT_UI.holdExpired}</p>
      <Button asChild variant="outline">
        <Link to="/checkout">Return to checkout</Link>
      </Button>
    </div>
  );
}

/**
 * Stripe collects card details in a form that needs JavaScript; without it the buyer pays the same
 * order on Stripe's own secure page and comes back to /checkout-success.
 */
function HostedPayment({ total, paying }: { total: number; paying: boolean }) {
  return (
    <Form method="post" className="space-y-4" aria-label="Card payment" data-testid="hosted-payment-form">
      <p className="text-sm leading-relaxed text-muted-foreground">
        You will pay on Stripe&apos;s secure page, then come back here for your order confirmation. Your card details never reach our store.
      </p>
      <Button type="submit" size={null} className={ORDER_BUTTON_CLASS} disabled={paying}>
        <Lock aria-hidden="true" />
        {paying ? "Processing..." : `Pay on Stripe - ${formatUsd(total)}`}
      </Button>
    </Form>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
