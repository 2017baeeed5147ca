import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowRight, CircleAlert, CircleCheck, Hourglass, SearchX } from "lucide-react";
import { successLoader, type SuccessData } from "#server/http/doors/checkout-door";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { ORDER_PAGE_MESSAGES } from "#server/contracts/order-page";
import { Button } from "#app/components/ui/button";
import type { RootData } from "#app/root";

/**
 * /checkout-success?payment_intent=...: where Stripe returns the buyer after a redirect (3-D
 * Secure) and where the no-JavaScript payment lands. The loader confirms the payment through the
 * one idempotent service, so reloading this page, or arriving after the webhook, changes nothing.
 */
export const loader = (args: LoaderFunctionArgs) => successLoader(args);

export const meta: MetaFunction<typeof loader, { root: RootData }> = ({ matches }) => {
  const brand = matches.find((match) => match.id === "root")?.data?.brand.name ?? "Store";
  return [{ title: `Order | ${brand}` }, { name: "robots", content: "noindex" }];
};

export default function CheckoutSuccess() {
  const outcome = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-4 py-16 sm:px-6">
      <div className="rounded-lg border border-border bg-card p-6 sm:p-10" data-testid="checkout-outcome" data-state={outcome.state}>
        <Outcome outcome={outcome} />
      </div>
    </div>
  );
}

function Outcome({ outcome }: { outcome: SuccessData }) {
  switch (outcome.state) {
    case "paid":
      return (
        <Panel
          icon={<CircleCheck className="size-10 text-success" aria-hidden="true" />}
          title={CHECKOUT_UI.successTitle}
          orderNumber={outcome.orderNumber}
        >
          <p>{CHECKOUT_UI.success}</p>
          {outcome.orderUrl ? (
            <Button asChild size="lg" className="mt-8 w-full sm:w-auto" data-testid="view-order">
              <Link to={outcome.orderUrl}>
                {ORDER_PAGE_MESSAGES.viewOrder}
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          ) : null}
          <StoreLink label="Continue shopping" variant={outcome.orderUrl ? "outline" : "default"} />
        </Panel>
      );
    case "pending":
      return (
        <Panel
          icon={<Hourglass className="size-10 text-muted-foreground" aria-hidden="true" />}
          title={CHECKOUT_UI.pendingTitle}
          orderNumber={outcome.orderNumber}
        >
          <p>{CHECKOUT_UI.pending}</p>
          <Button asChild size="lg" className="mt-8 w-full sm:w-auto">
            <Link to="/checkout">Return to checkout</Link>
          </Button>
        </Panel>
      );
    case "failed":
    case "cancelled":
      return (
        <Panel
          icon={<CircleAlert className="size-10 text-red-400" aria-hidden="true" />}
          title={outcome.state === "failed" ? CHECKOUT_UI.paymentFailedTitle : "Order cancelled"}
          orderNumber={outcome.orderNumber}
        >
          <p>{outcome.message}</p>
          <Button asChild size="lg" className="mt-8 w-full sm:w-auto">
            <Link to="/checkout">Return to checkout</Link>
          </Button>
        </Panel>
      );
    default:
      return (
        <Panel icon={<SearchX className="size-10 text-muted-foreground" aria-hidden="true" />} title="Payment not found">
          <p>We couldn't find this payment. If you were charged, contact support with the e-mail address you used.</p>
          <StoreLink label="Continue shopping" />
        </Panel>
      );
  }
}

function Panel({
  icon,
  title,
  orderNumber,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  orderNumber?: string;
  children: React.ReactNode;
}) {
  return (
    <div role="status" className="flex flex-col items-start">
      {icon}
      <h1 className="mt-5 font-display text-5xl leading-[0.9] tracking-wide sm:text-6xl">{title}</h1>
      {orderNumber ? (
        <p className="mt-4 text-sm text-muted-foreground">
          Order number{" "}
          <span className="font-mono font-semibold tracking-wider text-foreground" data-testid="order-number">
            #{orderNumber}
          </span>
        </p>
      ) : null}
      <div className="mt-3 text-muted-foreground">{children}</div>
    </div>
  );
}

function StoreLink({ label, variant = "default" }: { label: string; variant?: "default" | "outline" }) {
  return (
    <Button
      asChild
      size="lg"
      variant={variant}
      className={variant === "outline" ? "mt-3 w-full sm:mt-8 sm:ml-3 sm:w-auto" : "mt-8 w-full sm:w-auto"}
    >
      <Link to="/store">
        {label}
        <ArrowRight aria-hidden="true" />
      </Link>
    </Button>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
