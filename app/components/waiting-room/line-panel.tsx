import { Link } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { useEffect, useState } from "react";
import type { WaitingRoomStatus } from "#server/contracts/waiting-room";
import { WAITING_ROOM_MESSAGES } from "#server/contracts/waiting-room-messages";
import { pad2, splitRemaining } from "#app/components/countdown/time";
import { Button } from "#app/components/ui/button";

/** "about 4 minutes", "less than a minute". */
export function waitText(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 60) return "less than a minute";
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? "about 1 minute" : `about ${minutes} minutes`;
}

function StartsIn({ dropAt, serverNow }: { dropAt: string; serverNow: string }) {
  const [now, setNow] = useState(() => new Date(serverNow).getTime());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const { days, hours, minutes, seconds } = splitRemaining(new Date(dropAt).getTime() - now);
  const text = `${days > 0 ? `${days}d ` : ""}${hours > 0 || days > 0 ? `${pad2(hours)}:` : ""}${pad2(minutes)}:${pad2(seconds)}`;
  return (
    <p className="font-display text-[clamp(3.5rem,16vw,6rem)] leading-none tracking-[0.04em] tabular-nums" data-testid="starts-in">
      {text}
    </p>
  );
}

/** What the line says to one browser: before T-0, waiting, or its turn. The live region announces changes. */
export function LinePanel({
  status,
  paused,
  dropAt,
  serverNow,
}: {
  status: WaitingRoomStatus;
  paused: boolean;
  dropAt: string;
  serverNow: string;
}) {
  if (status.state === "admitted") {
    return (
      <div aria-live="polite" className="space-y-6" data-testid="line-status" data-state="admitted">
        <h2 className="font-display text-[clamp(3rem,12vw,5rem)] leading-[0.9] tracking-[0.04em] uppercase">
          {WAITING_ROOM_MESSAGES.yourTurn}
        </h2>
        <p className="text-muted-foreground">
          Your place in the store is held for you. Go in now: your pass runs out if you wait too long.
        </p>
        <Button asChild size="lg">
          <Link to="/store" reloadDocument>
            Enter the store
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    );
  }
  if (status.state === "before") {
    return (
      <div aria-live="polite" className="space-y-5" data-testid="line-status" data-state="before">
        <p className="text-xs font-semibold tracking-[0.2em] text-muted-foreground uppercase">The drop starts in</p>
        <StartsIn dropAt={dropAt} serverNow={serverNow} />
        <p className="text-lg">You&apos;re in the line.</p>
        <p className="text-muted-foreground">{WAITING_ROOM_MESSAGES.equalChance}</p>
      </div>
    );
  }
  if (status.state === "closed") {
    return (
      <div aria-live="polite" className="space-y-6" data-testid="line-status" data-state="closed">
        <p className="text-lg">{WAITING_ROOM_MESSAGES.notOpen}</p>
        <Button asChild size="lg">
          <Link to="/store" reloadDocument>
            Go to the store
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    );
  }
  const wait = waitText(status.etaSeconds);
  return (
    <div aria-live="polite" className="space-y-4" data-testid="line-status" data-state="waiting">
      {status.position === null ? (
        <p className="text-lg">Finding your place in line…</p>
      ) : (
        <>
          <h2 className="font-display text-[clamp(2.5rem,10vw,4.5rem)] leading-[0.9] tracking-[0.04em] uppercase">
            You are number {status.position.toLocaleString("en-US")} in line
          </h2>
          <p className="text-lg" data-testid="ahead">
            {status.ahead === 0
              ? "Nobody is ahead of you."
              : `${status.ahead?.toLocaleString("en-US")} ${status.ahead === 1 ? "person is" : "people are"} ahead of you.`}
          </p>
          {paused ? <p className="text-muted-foreground">{WAITING_ROOM_MESSAGES.paused}</p> : null}
          {!paused && wait ? <p className="text-muted-foreground">Estimated wait: {wait}.</p> : null}
        </>
      )}
      <p className="text-sm text-muted-foreground">Keep this page open: it updates by itself, and you keep your place.</p>
    </div>
  );
}
