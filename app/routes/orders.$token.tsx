import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LifeBuoy } from "lucide-react";
import { OrderTimeline } from "#app/components/orders/order-timeline";
import { ProductImage } from "#app/components/store/product-image";
import { pageTitle } from "#app/lib/page-title";
import { formatUsd } from "#server/contracts/money";
import { ORDER_PAGE_MESSAGES } from "#server/contracts/order-page";
import { orderPageLoader } from "#server/http/doors/order-page-door";

export const loader = (args: LoaderFunctionArgs) => orderPageLoader(args);
export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  pageTitle(data ? `Order #${data.orderNumber}` : "Order not found", matches),
  { name: "robots", content: "noindex" },
];

const STATUS_LABELS = {
  pending: "Awaiting payment",
  processing: "Processing",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
} as const;

/** /orders/{token}: the buyer's own order, without signing in (issue 25). */
export default function OrderPage() {
  const order = useLoaderData<typeof loader>();
  const totals: [string, number][] = [
    ["Subtotal", order.subtotal],
    ...(order.discount > 0 ? ([["Discount", -order.discount]] as [string, number][]) : []),
    ["Shipping", order.shipping],
    ["Tax", order.tax],
  ];
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6 md:py-16">
      <header>
        <p className="text-sm text-muted-foreground">Placed {order.placedOn}</p>
        <h1 className="mt-1 font-display text-5xl leading-[0.9] tracking-wide sm:text-6xl">
          Order <span data-testid="order-number">#{order.orderNumber}</span>
        </h1>
        <p className="mt-3 inline-flex rounded-full border border-border px-3 py-1 text-sm" data-testid="order-status">
          {STATUS_LABELS[order.status]}
          {order.refundStatus === "completed" ? " · Refunded" : ""}
        </p>
      </header>

      <div className="mt-10 grid gap-10 md:grid-cols-[1fr_1.2fr]">
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title" className="mb-5 font-display text-2xl tracking-wide">
            Status
          </h2>
          <OrderTimeline order={order} />
        </section>

        <section aria-labelledby="items-title" className="rounded-lg border border-border bg-card p-5 sm:p-6">
          <h2 id="items-title" className="font-display text-2xl tracking-wide">
            Items
          </h2>
          <ul className="mt-4 divide-y divide-border">
            {order.lines.map((line, index) => (
              <li key={index} className="flex gap-4 py-4" data-testid="order-line">
                <div className="size-16 shrink-0 overflow-hidden rounded-md">
                  <ProductImage image={{ imageUrl: line.imageUrl, imagePath: null, srcSet: null }} alt={line.productName} sizes="64px" />
                </div>
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{line.productName}</p>
                  <p className="text-sm text-muted-foreground">
                    {line.size ? `Size ${line.size} · ` : ""}Qty {line.quantity} × {formatUsd(line.price)}
                  </p>
                </div>
                <p className="font-medium">{formatUsd(line.total)}</p>
              </li>
            ))}
          </ul>
          <dl className="mt-2 space-y-1.5 border-t border-border pt-4 text-sm">
            {totals.map(([label, amount]) => (
              <div key={label} className="flex justify-between">
                <dt className="text-muted-foreground">{label}</dt>
                <dd>{formatUsd(amount)}</dd>
              </div>
            ))}
            <div className="flex justify-between pt-2 text-base font-semibold">
              <dt>Total</dt>
              <dd data-testid="order-total">{formatUsd(order.total)}</dd>
            </div>
          </dl>
        </section>
      </div>

      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="ship-title" className="rounded-lg border border-border bg-card p-5 sm:p-6">
          <h2 id="ship-title" className="font-display text-2xl tracking-wide">
            Shipping to
          </h2>
          <address className="mt-3 text-sm not-italic" data-testid="order-address">
            {order.shipTo.name}
            {order.shipTo.lines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </section>
        <section className="flex flex-col justify-center rounded-lg border border-border bg-card p-5 sm:p-6">
          <Link
            to={order.supportUrl}
            className="inline-flex items-center gap-2 font-medium underline underline-offset-4"
            data-testid="order-help"
          >
            <LifeBuoy className="size-4" aria-hidden="true" />
            {ORDER_PAGE_MESSAGES.needHelp}
          </Link>
          <p className="mt-2 text-sm text-muted-foreground">Keep this page's link private: anyone with it can see this order.</p>
        </section>
      </div>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
