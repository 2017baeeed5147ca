import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DrawPanel } from "#app/components/draws/draw-panel";
import { SizeGuide } from "#app/components/store/size-guide";
import { DRAW_PAGE_HEADERS, drawEntryAction, drawPageLoader } from "#server/http/doors/draw-door";
import { pageTitle } from "#app/lib/page-title";

export const loader = (args: LoaderFunctionArgs) => drawPageLoader(args);
export const action = (args: ActionFunctionArgs) => drawEntryAction(args);
export const headers: HeadersFunction = () => DRAW_PAGE_HEADERS;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  pageTitle(data ? `Draw: ${data.draw.product.name}` : "Draw", matches),
];

/** /draws/{id}: a draw's public page, with the entry form ({{draw_link}} in a campaign leads here). */
export default function DrawPage() {
  const loaded = useLoaderData<typeof loader>();
  const page = useActionData<typeof action>() ?? loaded;
  return (
    <section className="mx-auto w-full max-w-xl flex-1 px-4 py-12 sm:px-6">
      <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Draw</p>
      <h1 className="mt-2 mb-6 font-display text-5xl leading-[0.9] uppercase">
        <Link to={`/store/${page.draw.product.id}`}>{page.draw.product.name}</Link>
      </h1>
      <DrawPanel
        draw={page.draw}
        entered={page.entered}
        sizeGuide={page.sizeGuide ? <SizeGuide text={page.sizeGuide} productName={page.draw.product.name} /> : null}
      />
    </section>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
