import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { DrawDetail } from "#app/components/admin/draws/draw-detail";
import { useLiveDraws } from "#app/components/admin/draws/use-live-draws";
import { adminDrawLoader } from "#server/http/doors/admin-draws-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Draw", matches)];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export const loader = (args: LoaderFunctionArgs) => adminDrawLoader(args);

/** /admin/draws/{id}: one draw's entries per size, its winners and their claims (issue 26). */
export default function AdminDraw() {
  const { draw, now } = useLoaderData<typeof loader>();
  // Entries come in while open; after the draw, claims are taken, paid or passed on.
  const pending = draw.winners.some((w) => !w.paidAt && !w.lapsedAt);
  useLiveDraws(draw.state === "open" || draw.state === "closed" || pending);
  return (
    <AdminSection heading="Draws">
      <DrawDetail draw={draw} now={now} />
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
