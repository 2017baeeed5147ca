import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { CATALOG_MESSAGES } from "#server/contracts/catalog-view";
import { storeLoader } from "#server/http/doors/store-door";
import { RouteErrorPage } from "#app/components/error-pages";
import { ProductCard } from "#app/components/store/product-card";
import { Button } from "#app/components/ui/button";
import type { RootData } from "#app/root";

export const loader = (args: LoaderFunctionArgs) => storeLoader(args);

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction<typeof loader, { root: RootData }> = ({ matches }) => {
  const brand = matches.find((match) => match.id === "root")?.data?.brand.name ?? "Store";
  return [
    { title: `Store | ${brand}` },
    { name: "description", content: `${brand}: limited-edition pieces in small runs. Once sold out, never restocked.` },
  ];
};

// Above the fold on a wide screen: one row of four. Everything below loads lazily.
const EAGER = 4;

export default function Store() {
  const { products } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="store-title" className="mx-auto w-full max-w-7xl px-4 pt-10 pb-20 sm:px-6 sm:pt-14 lg:px-8">
      <StoreIntro count={products.length} />
      {products.length === 0 ? (
        <EmptyStore />
      ) : (
        <ul className="mt-8 grid grid-cols-2 gap-x-3 gap-y-10 sm:gap-x-5 sm:gap-y-14 lg:grid-cols-4" data-testid="product-grid">
          {products.map((product, index) => (
            <ProductCard key={product.id} product={product} number={index + 1} priority={index < EAGER} />
          ))}
        </ul>
      )}
    </section>
  );
}

// The purchase policy in three words each (docs/spec.md §2, Purchase Disclaimer).
const DROP_TERMS = ["Limited runs", "No restocks", "All sales final"];

function StoreIntro({ count }: { count: number }) {
  return (
    <header className="grid gap-6 border-b border-border pb-8 md:grid-cols-[1fr_auto] md:items-end">
      <div>
        <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Limited-edition apparel</p>
        <h1 id="store-title" className="mt-3 font-display text-[clamp(4.5rem,16vw,9rem)] leading-[0.85] uppercase">
          The Drop
        </h1>
      </div>
      <div className="max-w-sm space-y-3 md:text-right">
        <p className="text-sm leading-relaxed text-muted-foreground">
          Small runs, made once. When a piece sells out it is gone for good: nothing here is restocked.
        </p>
        <p className="text-xs font-semibold tracking-[0.2em] uppercase tabular-nums">
          {count} {count === 1 ? "piece" : "pieces"}
        </p>
      </div>
      <ul
        aria-label="Drop terms"
        className="flex flex-col gap-x-3 gap-y-1 text-[11px] sm:flex-row sm:flex-wrap font-semibold tracking-[0.24em] text-muted-foreground uppercase md:col-span-2"
      >
        {DROP_TERMS.map((term, index) => (
          <li key={term} className="flex items-center gap-3">
            {/* Stacked on a phone, so no line there starts with a dot; in a row from sm up. */}
            {index > 0 ? <span aria-hidden="true" className="hidden size-1 rounded-full bg-foreground/35 sm:block" /> : null}
            {term}
          </li>
        ))}
      </ul>
    </header>
  );
}

function EmptyStore() {
  return (
    <div className="flex flex-col items-start gap-6 py-20">
      <p className="max-w-md text-lg text-muted-foreground">
        The store is between drops. Join the list to hear first when the next one lands.
      </p>
      <Button asChild variant="outline">
        <Link to="/">
          Get early access
          <ArrowRight aria-hidden="true" />
        </Link>
      </Button>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage failedMessage={CATALOG_MESSAGES.loadFailed} back={{ to: "/store", label: "Try again" }} />;
}
