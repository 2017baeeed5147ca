import { Link, useNavigate } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { useEffect, useState } from "react";
import { useLaunchDate } from "./countdown/use-launch-date";
import { DEFAULT_LAUNCH, pad2, remainingMs, splitRemaining } from "./countdown/time";
import { formatLaunchTime } from "#server/contracts/store-zone";
import { cn } from "#app/lib/utils";

/** docs/spec.md §9: the redirect waits 1.5 s after zero, the display ticks every second. */
export const REDIRECT_DELAY_MS = 1500;
const TICK_MS = 1000;
/** Without JavaScript the page reloads itself at launch when launch is this close. */
const NOSCRIPT_RELOAD_WITHIN_S = 6 * 60 * 60;

export interface CountdownProps {
  /** The launch instant (ISO), as the loader read it from settings. */
  target: string;
  /** The server's clock when it rendered: the first render uses it, so hydration matches. */
  serverNow: string;
  storePath?: string;
  className?: string;
}

/**
 * The launch countdown. The server renders the real remaining time; in the browser it then
 * ticks from the visitor's clock, follows the date the admin sets (polled every 30 s) and, at
 * zero, shows the launch message and moves to the store after 1.5 s.
 */
export function Countdown({ target: initialTarget, serverNow, storePath = "/store", className }: CountdownProps) {
  const target = useLaunchDate(initialTarget);
  const [now, setNow] = useState(() => new Date(serverNow).getTime());
  const navigate = useNavigate();

  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const ms = remainingMs(target, now);
  const finished = !(ms > 0);

  useEffect(() => {
    if (!finished) return;
    const timer = setTimeout(() => navigate(storePath), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [finished, navigate, storePath]);

  return <CountdownDisplay remainingMs={ms} target={target} storePath={storePath} className={className} />;
}

/** What the countdown looks like at a given moment; pure, so the server's HTML is testable. */
export function CountdownDisplay({
  remainingMs: ms,
  target,
  storePath = "/store",
  className,
}: {
  remainingMs: number;
  target: string;
  storePath?: string;
  className?: string;
}) {
  const launch = formatLaunchTime(Number.isNaN(Date.parse(target)) ? DEFAULT_LAUNCH : target);

  if (!(ms > 0)) {
    return (
      <div role="status" className={cn("countdown countdown-finished flex flex-col items-start", className)} data-state="finished">
        <p className="font-display text-[clamp(3rem,10vw,5.75rem)] leading-[0.9] tracking-[0.03em] text-balance">LAUNCH DAY IS HERE!</p>
        <p className="mt-3 flex items-center gap-3 text-sm font-semibold tracking-[0.24em] text-muted-foreground uppercase">
          <span className="countdown-pulse" aria-hidden="true" />
          Redirecting to store...
        </p>
        {/* No JavaScript, no timer: the browser's own refresh takes the visitor to the store. */}
        <noscript>
          <meta httpEquiv="refresh" content={`2;url=${storePath}`} />
        </noscript>
        <StoreLink to={storePath} />
      </div>
    );
  }

  const { days, hours, minutes, seconds } = splitRemaining(ms);
  const units = [
    { label: "Days", value: days },
    { label: "Hours", value: hours },
    { label: "Mins", value: minutes },
    { label: "Secs", value: seconds },
  ];
  const secondsLeft = Math.ceil(ms / 1000);
  return (
    <div className={cn("countdown", className)} data-state="running">
      {/* The timer role sits on a wrapper: on the <ol> itself it would take the list's role away, and
          its items would be list items outside any list (axe: listitem). */}
      <div role="timer" aria-label="Time left until launch">
        <ol className="grid grid-cols-4 gap-2 sm:gap-3">
          {units.map((unit) => (
            <li key={unit.label} className="countdown-unit" data-unit={unit.label.toLowerCase()}>
              <span className="countdown-digits font-display">{pad2(unit.value)}</span>
              <span className="countdown-label">{unit.label}</span>
            </li>
          ))}
        </ol>
      </div>
      <div className="mt-5 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
        <p className="text-sm text-pretty text-muted-foreground">
          Launching <time dateTime={target}>{launch}</time>
        </p>
        <StoreLink to={storePath} />
      </div>
      {secondsLeft <= NOSCRIPT_RELOAD_WITHIN_S ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(secondsLeft + 1)} />
        </noscript>
      ) : null}
    </div>
  );
}

function StoreLink({ to }: { to: string }) {
  return (
    <Link
      to={to}
      prefetch="intent"
      className="group inline-flex min-h-11 shrink-0 items-center gap-2 self-start text-xs whitespace-nowrap font-semibold tracking-[0.22em] uppercase underline-offset-8 hover:underline"
    >
      Enter the Store
      <ArrowRight aria-hidden className="size-4 transition-transform group-hover:translate-x-1" />
    </Link>
  );
}
