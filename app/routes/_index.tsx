import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { launchPageData } from "#server/http/doors/launch-page";
import { subscribeAction } from "#server/http/doors/subscribe-door";
import { BackgroundVideo } from "#app/components/background-video";
import { Countdown } from "#app/components/countdown";
import { MusicPlayer } from "#app/components/music-player";
import { SignupCard } from "#app/components/signup-card";
import { SocialLinks } from "#app/components/social-links";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const brand = data?.brand.name ?? "Store";
  return [
    { title: `Early Access | ${brand}` },
    { name: "description", content: data ? `${data.tagline} ${brand}: limited-edition drops.` : "Limited-edition drops." },
  ];
};

/** docs/spec.md §2 "Landing page": everything the admin can change comes from settings. */
export async function loader() {
  const { settings, base } = await launchPageData();
  return {
    ...base,
    tagline: settings.homepage_tagline,
    subtitle: settings.homepage_subtitle,
    videoUrl: settings.background_video,
  };
}

/** The sign-up card posts here. */
export const action = (args: ActionFunctionArgs) => subscribeAction(args);

export default function Landing() {
  const data = useLoaderData<typeof loader>();
  const { brand } = data;
  return (
    <div className="landing relative flex flex-1 flex-col">
      <BackgroundVideo src={data.videoUrl} />
      <div className="mx-auto grid w-full max-w-7xl flex-1 items-center gap-12 px-4 pt-10 pb-16 sm:px-6 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] lg:gap-16 lg:px-8 lg:py-12">
        <div className="landing-copy">
          <p className="flex items-center gap-3 text-[11px] font-semibold tracking-[0.34em] text-muted-foreground uppercase">
            <span className="h-px w-8 bg-foreground/50" aria-hidden="true" />
            {brand.name} · Limited edition
          </p>
          <p className="mt-5 font-display text-[clamp(3.5rem,11vw,5.75rem)] leading-[0.88] tracking-[0.015em] text-balance">
            {data.tagline}
          </p>
          <p lang="es" className="mt-5 max-w-md text-base text-foreground/75 italic sm:text-lg">
            {data.subtitle}
          </p>
          {/* Its slot is held from the first paint: see countdown.tsx (decision 0031). */}
          <div className="music-player-slot mt-6">
            <MusicPlayer src={data.musicUrl} />
          </div>

          <h1 className="mt-9 text-xs font-semibold tracking-[0.2em] text-balance uppercase sm:text-sm sm:tracking-[0.3em]">{`Time's almost up, ${brand.name} begins in:`}</h1>
          <Countdown target={data.countdownDate} serverNow={data.now} className="mt-4" />
        </div>

        <div className="flex flex-col gap-6">
          <SignupCard brand={brand.name} supportEmail={brand.supportEmail} serverToday={data.today} />
          <SocialLinks brand={brand.name} handle={brand.socialHandle} className="justify-center lg:justify-start" />
        </div>
      </div>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
