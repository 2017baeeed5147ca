import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { aboutLoader } from "#server/http/doors/about-door";
import { BackgroundVideo } from "#app/components/background-video";
import { SocialLinks } from "#app/components/social-links";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const brand = data?.brand.name ?? "Store";
  return [{ title: `About | ${brand}` }, { name: "description", content: `${brand}: who we are, in English and Spanish.` }];
};

/** docs/spec.md §2 "About": the statement in English and Spanish, a dated line, the video, social links. */
export const loader = () => aboutLoader();

export default function About() {
  const { brand, videoUrl, firstDrop } = useLoaderData<typeof loader>();
  return (
    <div className="about-page relative flex flex-1 flex-col">
      <BackgroundVideo src={videoUrl} dim="strong" />
      <article className="mx-auto w-full max-w-6xl px-4 pt-14 pb-20 sm:px-6 lg:px-8 lg:pt-20">
        <p className="flex items-center gap-3 text-[11px] font-semibold tracking-[0.34em] text-muted-foreground uppercase">
          <span className="h-px w-8 bg-foreground/50" aria-hidden="true" />
          About
        </p>
        <h1 className="mt-4 font-display text-[clamp(5rem,18vw,11rem)] leading-[0.82] tracking-[0.03em] uppercase">{brand.name}</h1>

        <div className="mt-12 grid gap-12 md:grid-cols-2 md:gap-16">
          <section lang="en" aria-labelledby="about-en" className="about-statement">
            <h2 id="about-en" className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">
              Our Story
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-foreground/90 sm:text-xl">
              {brand.name} is built on one belief: what you wear should say something without saying a word.
            </p>
            <p className="mt-4 leading-relaxed text-foreground/75">
              We make a few pieces at a time, in numbers we can stand behind: heavyweight fabrics, honest construction, details you notice
              the second time you look. Every drop is a limited edition. When it is gone, it is gone; we do not restock. No noise. No
              exaggeration. Only presence.
            </p>
          </section>
          <section lang="es" aria-labelledby="about-es" className="about-statement">
            <h2 id="about-es" className="text-xs font-semibold tracking-[0.3em] text-muted-foreground uppercase">
              Nuestra Historia
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-foreground/90 sm:text-xl">
              {brand.name} nace de una sola convicción: lo que llevas puesto debería decir algo sin decir una palabra.
            </p>
            <p className="mt-4 leading-relaxed text-foreground/75">
              Hacemos pocas piezas a la vez, en cantidades que podemos respaldar: telas de gramaje pesado, confección honesta, detalles que
              descubres la segunda vez que miras. Cada lanzamiento es una edición limitada. Cuando se agota, se agota; no reponemos. Sin
              gritos. Sin exageraciones. Solo presencia.
            </p>
          </section>
        </div>

        <div className="mt-14 flex flex-col gap-6 border-t border-foreground/15 pt-8 sm:flex-row sm:items-center sm:justify-between">
          <p className="font-display text-2xl tracking-[0.08em] uppercase">
            {brand.name} · First drop <time dateTime={firstDrop.iso}>{firstDrop.label}</time>
          </p>
          <SocialLinks brand={brand.name} handle={brand.socialHandle} />
        </div>
      </article>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
