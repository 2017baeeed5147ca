import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { CreateDrawForm, DrawList, DrawsNotice } from "#app/components/admin/draws/draws-panel";
import { useLiveDraws } from "#app/components/admin/draws/use-live-draws";
import { adminDrawsAction, adminDrawsLoader } from "#server/http/doors/admin-draws-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Draws", matches)];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export const loader = (args: LoaderFunctionArgs) => adminDrawsLoader(args);
export const action = (args: ActionFunctionArgs) => adminDrawsAction(args);

/** /admin/draws: products sold by a verifiable draw (issue 26, decision 0047). */
export default function AdminDraws() {
  const { draws, products } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // Remix gives the action's answer as the loaders start again: the notice waits for the list it
  // speaks of ("Draw deleted." beside the deleted row, for a moment, otherwise).
  const settled = useNavigation().state === "idle";
  // Counts move while a draw takes entries, and the sweeper draws it after the close.
  useLiveDraws(draws.some((draw) => draw.state === "open" || draw.state === "closed"));
  return (
    <AdminSection heading="Draws">
      <p className="text-sm text-muted-foreground">
        A product sold by draw: entries open for a while, one per person; after the close the draw is made and winners get a link to buy.
        The commitment is public from the start, the proof once drawn.
      </p>
      <div className="grid items-start gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-3">
          <DrawsNotice answer={settled ? answer : undefined} intents={["draw", "delete"]} />
          <DrawList draws={draws} />
        </div>
        <CreateDrawForm products={products} answer={answer} />
      </div>
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
