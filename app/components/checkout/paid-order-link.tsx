import { Link } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import { ORDER_PAGE_MESSAGES } from "#server/contracts/order-page-messages";

/**
 * What the payment's notice says as it follows the buyer home (issue 25): the order number, the
 * spec's thanks, and, once the server has given this browser its order's page, "View your order".
 * The link is never guessed here: it is what /checkout-success's loader answered this browser's bag.
 */
export function PaidToastText({ orderNumber, orderUrl, onOpen }: { orderNumber: string; orderUrl: string | null; onOpen?: () => void }) {
  return (
    <span className="flex flex-col gap-1.5" data-testid="paid-toast">
      {orderNumber ? (
        <span>
          Order <span className="font-mono font-semibold tracking-wider">#{orderNumber}</span>
        </span>
      ) : null}
      <span>{CHECKOUT_UI.success}</span>
      {orderUrl ? (
        <OrderPageLink to={orderUrl} onClick={onOpen} className="font-semibold underline underline-offset-4" testId="toast-view-order" />
      ) : null}
    </span>
  );
}

export function OrderPageLink({
  to,
  onClick,
  className,
  testId,
}: {
  to: string;
  onClick?: () => void;
  className?: string;
  testId: string;
}) {
  return (
    <Link to={to} prefetch="none" onClick={onClick} className={`inline-flex items-center gap-1.5 ${className ?? ""}`} data-testid={testId}>
      {ORDER_PAGE_MESSAGES.viewOrder}
      <ArrowRight className="size-4" aria-hidden="true" />
    </Link>
  );
}
