import { Link, useRouteLoaderData } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { RootData } from "~/root";

/** Temporary home page; the storefront work replaces it with the countdown landing page. */
export default function Index() {
  const root = useRouteLoaderData<RootData>("root");
  const brand = root?.brand.name ?? "Store";
  return (
    <section className="relative isolate flex flex-1 flex-col justify-center overflow-hidden px-4 py-20 sm:px-6 lg:px-8">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,oklch(1_0_0/0.09),transparent_60%)]"
      />
      <div className="mx-auto w-full max-w-7xl">
        <p className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">Limited-edition apparel</p>
        <h1 className="mt-4 font-display text-[clamp(5.5rem,27vw,16rem)] leading-[0.85] [overflow-wrap:anywhere] tracking-[0.02em] uppercase">
          {brand}
        </h1>
        <p className="mt-6 max-w-md text-lg text-muted-foreground sm:text-xl">
          Limited drops. Sign up for early access soon.
        </p>
        <div className="mt-10">
          <Button asChild size="lg" className="w-full sm:w-auto">
            <Link to="/store" prefetch="intent">
              Shop the Store
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
