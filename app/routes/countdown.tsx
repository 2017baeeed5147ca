import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { countdownLoader } from "#server/http/doors/countdown-door";
import { subscribeAction } from "#server/http/doors/subscribe-door";
import { Countdown } from "#app/components/countdown";
import { MusicPlayer } from "#app/components/music-player";
import { SignupCard } from "#app/components/signup-card";
import { SocialLinks } from "#app/components/social-links";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const brand = data?.brand.name ?? "Store";
  return [{ title: `Countdown | ${brand}` }, { name: "description", content: `The countdown to the next ${brand} drop.` }];
};

/** docs/spec.md §2 "Alternative countdown page". */
export const loader = () => countdownLoader();

export const action = (args: ActionFunctionArgs) => subscribeAction(args);

export default function CountdownPage() {
  const data = useLoaderData<typeof loader>();
  const { brand } = data;
  return (
    <div className="countdown-page relative flex flex-1 flex-col items-center overflow-hidden px-4 pt-10 pb-20 sm:px-6 sm:pt-14">
      <div className="countdown-page-backdrop" aria-hidden="true" />
      <div className="w-full max-w-3xl text-center">
        {/* The player is drawn at hydration (without JavaScript, the browser's own controls): its
            slot is held from the first paint so the page below it does not move (decision 0031). */}
        <div className="music-player-slot mb-8 flex justify-center">
          <MusicPlayer src={data.musicUrl} startAt={16} />
        </div>
        <h1 className="font-display text-[clamp(5.5rem,24vw,13rem)] leading-[0.8] tracking-[0.04em] uppercase">{brand.name}</h1>
        <h2
          className="countdown-text mt-8 font-display text-[clamp(1.75rem,5vw,2.75rem)] leading-[1.05] tracking-[0.04em] uppercase"
          dangerouslySetInnerHTML={{ __html: data.countdownHtml }}
        />
        <Countdown target={data.countdownDate} serverNow={data.now} className="countdown-centered mx-auto mt-8 max-w-2xl text-left" />
        <SignupCard
          brand={brand.name}
          supportEmail={brand.supportEmail}
          serverToday={data.today}
          className="mx-auto mt-14 max-w-xl text-left"
        />
        <SocialLinks brand={brand.name} handle={brand.socialHandle} className="mt-8 justify-center" />
      </div>
    </div>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";
