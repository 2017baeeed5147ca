import type { ReactNode } from "react";

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
