import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { waitingRoomPage } from "#server/http/doors/waiting-room-door";
import { ProductImage } from "#app/components/store/product-image";
import { LinePanel } from "#app/components/waiting-room/line-panel";
import { useLineStatus } from "#app/components/waiting-room/use-line-status";

/** Without JavaScript the page reloads itself this often (with it, it asks the API instead). */
const REFRESH_SECONDS = 10;

export const loader = (args: LoaderFunctionArgs) => waitingRoomPage(args);

// No robots noindex (decision 0031). Unlike /checkout this page is not a redirect for a crawler:
// outside the room's window it answers 200 with "There is no line right now" and a link to the store.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Waiting room | ${data?.brand.name ?? "Store"}` },
  { name: "description", content: `${data?.brand.name ?? "The store"}: the line in front of the drop.` },
];

/** Issue 12: the line in front of a busy drop. Light on purpose: no video, one picture. */
export default function WaitingRoom() {
  const data = useLoaderData<typeof loader>();
  const status = useLineStatus(data.status);
  const waiting = status.state === "before" || status.state === "waiting";
  return (
    <>
      {waiting && !data.refused ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <section
        aria-labelledby="waiting-title"
        className="mx-auto grid w-full max-w-5xl gap-10 px-4 pt-10 pb-20 sm:px-6 sm:pt-14 md:grid-cols-[minmax(0,1fr)_18rem] lg:px-8"
      >
        <div className="space-y-8">
          <header className="space-y-2 border-b border-border pb-6">
            <p className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">Waiting room</p>
            <h1 id="waiting-title" className="font-display text-[clamp(3rem,11vw,5.5rem)] leading-[0.85] uppercase">
              The {data.brand.name} drop
            </h1>
          </header>
          {data.refused ? (
            <p role="alert" className="text-lg">
              {data.refused}
            </p>
          ) : (
            <LinePanel status={status} paused={data.paused} dropAt={data.dropAt} serverNow={data.now} />
          )}
        </div>
        {data.drop ? (
          <figure className="order-first space-y-3 md:order-none">
            {data.drop.image ? (
              <div className="aspect-square w-full max-w-56 overflow-hidden rounded-md bg-muted md:max-w-none">
                <ProductImage
                  image={data.drop.image}
                  alt={data.drop.name}
                  sizes="(min-width: 768px) 18rem, 60vw"
                  priority
                  className="size-full object-cover"
                />
              </div>
            ) : null}
            <figcaption className="text-sm font-semibold tracking-[0.12em] uppercase">{data.drop.name}</figcaption>
          </figure>
        ) : null}
      </section>
    </>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
