import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/lib/trpc";

export function AdminSection({ heading, children }: { heading: string; children?: ReactNode }) {
  return (
    <section aria-labelledby="admin-section-heading" className="space-y-6">
      <h2 id="admin-section-heading" className="font-display text-3xl tracking-wide">
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** The store's headline counts, read through tRPC (admin only). */
export function OverviewCounts() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.admin.overview.queryOptions());
  const items = [
    { label: "Subscribers", value: overview.data?.subscribers },
    { label: "Products", value: overview.data?.products },
    { label: "Orders", value: overview.data?.orders },
  ];
  return (
    <dl className="grid grid-cols-3 gap-3" aria-busy={overview.isPending}>
      {items.map((item) => (
        <div key={item.label} className="rounded-lg border border-border bg-card p-4">
          <dt className="text-xs uppercase tracking-wider text-muted-foreground">{item.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`count-${item.label.toLowerCase()}`}>
            {overview.isError ? "–" : (item.value ?? "…")}
          </dd>
        </div>
      ))}
    </dl>
  );
}
