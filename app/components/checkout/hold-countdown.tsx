import { Clock } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "#app/lib/utils";

export const clockText = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

const boxClass = "flex items-center gap-3 rounded-md border border-border bg-background/60 px-4 py-3 text-sm";

/**
 * "Your items are reserved for 9:41", ticking each second towards `deadline` (this browser's
 * clock, already corrected for the server's). Calls `onExpire` once when it reaches 0:00.
 */
export function HoldCountdown({ deadline, onExpire, className }: { deadline: number; onExpire: () => void; className?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  const expired = left === 0;
  useEffect(() => {
    if (expired) onExpire();
    // Once, on reaching zero: a new onExpire identity must not fire it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [expired]);
  return (
    <p className={cn(boxClass, className)} data-testid="hold-countdown">
      <Clock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span>
        Your items are reserved for{" "}
        <strong role="timer" aria-label={`${Math.ceil(left / 60)} minutes`} className="font-semibold tabular-nums">
          {clockText(left)}
        </strong>
      </span>
    </p>
  );
}

/**
 * The same line without JavaScript: the server gives the seconds left and a CSS animation of a
 * registered integer property counts them down (see `.hold-clock` in app.css). A browser without
 * @property keeps the starting value, which is still true when the page is made.
 */
export function StaticHoldCountdown({ seconds, className }: { seconds: number; className?: string }) {
  // steps(): the figure moves on the second, not half-way between (linear rounding would).
  const style = {
    "--hold-left": seconds,
    animationDuration: `${seconds}s`,
    animationTimingFunction: `steps(${Math.max(1, seconds)}, end)`,
  } as React.CSSProperties;
  return (
    <p className={cn(boxClass, className)} data-testid="hold-countdown">
      <Clock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span>
        Your items are reserved for{" "}
        <strong className="font-semibold tabular-nums">
          <span className="hold-clock motion-keep" style={style} aria-hidden="true" />
          <span className="sr-only">about {Math.ceil(seconds / 60)} minutes</span>
        </strong>
      </span>
    </p>
  );
}
