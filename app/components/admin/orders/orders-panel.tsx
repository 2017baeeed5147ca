import { Link, useSearchParams } from "@remix-run/react";
import { useQuery } from "@tanstack/react-query";
import { CircleAlert, PackageOpen } from "lucide-react";
import { useState } from "react";
import type { AdminOrder } from "./format";
import { OrderDetailDialog } from "./order-detail-dialog";
import { OrdersTable } from "./orders-table";
import { RefundDialog, type RefundTarget } from "./refund-dialog";
import { Spinner } from "#app/components/spinner";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

/**
 * Which orders the table shows. Every checkout makes an order before payment, so a drop leaves
 * many unpaid ones behind (abandoned, declined, expired): the admin can set them aside. A link
 * (?show=paid), so it works before and without JavaScript too.
 */
const FILTERS = [
  { key: "all", label: "All", test: () => true },
  { key: "paid", label: "Paid", test: (o: AdminOrder) => Boolean(o.paidAt) },
  { key: "unpaid", label: "Unpaid", test: (o: AdminOrder) => !o.paidAt },
] as const;

/**
 * The Orders tab: "Orders (count)", the table, the View dialog and the refund dialogs. The first
 * list comes from the route loader (so the page paints with its orders, with or without
 * JavaScript); after that react-query owns it and refetches it whenever an order changes.
 */
export function OrdersPanel({ initialOrders, loadedAt }: { initialOrders: AdminOrder[]; loadedAt: number }) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.admin.orders.list.queryOptions(),
    initialData: { orders: initialOrders },
    initialDataUpdatedAt: loadedAt,
    staleTime: 10_000,
  });
  const [viewing, setViewing] = useState<AdminOrder | null>(null);
  const [refunding, setRefunding] = useState<RefundTarget | null>(null);
  const [params] = useSearchParams();
  const filter = FILTERS.find((f) => f.key === params.get("show")) ?? FILTERS[0];
  const all = list.data.orders;
  const orders = all.filter(filter.test);

  return (
    <section aria-labelledby="orders-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 id="orders-heading" className="font-display text-2xl tracking-wide">
          Orders ({orders.length})
        </h3>
        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          {list.isFetching ? <Spinner className="size-3.5" label="Refreshing orders" /> : null}
          Newest first · times in Eastern Time
        </p>
      </div>

      {all.length > 0 ? (
        <nav aria-label="Show orders" className="flex flex-wrap gap-2">
          {FILTERS.map((f) => (
            <Link
              key={f.key}
              to={f.key === "all" ? "?" : `?show=${f.key}`}
              replace
              preventScrollReset
              aria-current={f.key === filter.key ? "page" : undefined}
              className={cn(
                "inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3.5 text-xs font-semibold tracking-wider uppercase transition-colors",
                f.key === filter.key
                  ? "border-foreground bg-foreground text-background"
                  : "border-border text-muted-foreground hover:border-foreground/60 hover:text-foreground",
              )}
            >
              {f.label}
              <span className="tabular-nums opacity-70">{all.filter(f.test).length}</span>
            </Link>
          ))}
        </nav>
      ) : null}

      {list.isError ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm"
        >
          <span className="flex items-center gap-2 text-red-200">
            <CircleAlert aria-hidden className="size-4" />
            Failed to refresh the orders: {list.error.message}
          </span>
          <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
            Try Again
          </Button>
        </div>
      ) : null}

      {all.length > 0 && orders.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border bg-card px-6 py-10 text-center text-sm text-muted-foreground">
          No {filter.label.toLowerCase()} orders.{" "}
          <Link to="?" replace preventScrollReset className="underline underline-offset-4">
            Show all orders
          </Link>
        </p>
      ) : orders.length === 0 ? (
        <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-border bg-card px-6 py-20 text-center">
          <PackageOpen aria-hidden className="mb-2 size-10 text-muted-foreground" />
          <p className="text-lg font-medium">No orders yet</p>
          <p className="max-w-sm text-sm text-muted-foreground">Orders will appear here once customers start making purchases.</p>
        </div>
      ) : (
        <OrdersTable orders={orders} onView={setViewing} onRefund={setRefunding} />
      )}

      <OrderDetailDialog order={viewing} onClose={() => setViewing(null)} onRefund={setRefunding} />
      <RefundDialog target={refunding} onClose={() => setRefunding(null)} />
    </section>
  );
}
