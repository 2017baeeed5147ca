import { Pause, Play } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { cn } from "#app/lib/utils";
import { whenIdle } from "#app/lib/when-idle";

/**
 * docs/spec.md §4 "Music player": loading, then ready. Nothing is fetched before it is played: autoplay is
 * attempted only when the browser may allow it (see below), else the player waits in "blocked".
 * Ready is one of
 * - "playing"  after autoplay (or a click) succeeded: "Now Playing", the button pauses;
 * - "blocked"  the browser refused autoplay: "Click to Play"; the first click or touch anywhere
 *              on the page starts it;
 * - "paused"   the visitor paused it: the button plays.
 * "unavailable" is the file failing to load: the player steps aside rather than show a dead button.
 */
export type MusicStatus = "loading" | "blocked" | "playing" | "paused" | "unavailable";

export const MUSIC_VOLUME = 0.3;

const LABELS: Record<Exclude<MusicStatus, "unavailable">, string> = {
  loading: "Loading...",
  blocked: "Click to Play",
  playing: "Now Playing",
  paused: "Paused",
};

export function MusicPlayer({ src, startAt = 16, className }: { src: string; startAt?: number; className?: string }) {
  const hydrated = useHydrated();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [status, setStatus] = useState<MusicStatus>("loading");
  const statusRef = useRef(status);
  statusRef.current = status;

  const play = useCallback(() => {
    const audio = audioRef.current;
    if (!audio || !audio.paused) return;
    // The file is fetched from here on, never before (preload="none", decision 0029).
    if (audio.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) setStatus("loading");
    audio.play().catch((error: unknown) => {
      // The autoplay policy said no: wait for a gesture. (An AbortError is a pause that won the
      // race; a broken file is reported by the "error" event.)
      if (error instanceof DOMException && error.name === "NotAllowedError") setStatus("blocked");
    });
  }, []);

  // Jump to the start offset once the file's length is known; try autoplay only where the browser
  // may allow it (the visitor has already interacted with this page, e.g. came by a client-side
  // link). Otherwise nothing is downloaded until a gesture: "Click to Play".
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.volume = MUSIC_VOLUME;
    const seekToStart = () => {
      if (Number.isFinite(audio.duration) && audio.duration > startAt && audio.currentTime < startAt) audio.currentTime = startAt;
    };
    const onPlaying = () => setStatus("playing");
    const onPause = () => setStatus((current) => (current === "blocked" ? current : "paused"));
    const onError = () => setStatus("unavailable");
    audio.addEventListener("loadedmetadata", seekToStart, { once: true });
    audio.addEventListener("playing", onPlaying);
    audio.addEventListener("pause", onPause);
    audio.addEventListener("error", onError);
    // The attempt waits for the page to load and go idle: a download it starts must not compete
    // with the first paint.
    setStatus("blocked");
    const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
    const cancelIdle = whenIdle(() => {
      // A late idle callback must not restart music the visitor has since started and paused.
      if (activation?.hasBeenActive && statusRef.current === "blocked") play();
    });
    return () => {
      cancelIdle();
      audio.removeEventListener("loadedmetadata", seekToStart);
      audio.removeEventListener("playing", onPlaying);
      audio.removeEventListener("pause", onPause);
      audio.removeEventListener("error", onError);
      // A detached <audio> keeps playing: stop it when the page goes away.
      audio.pause();
    };
  }, [src, startAt, play, hydrated]);

  // Autoplay refused: the first click or touch anywhere on the page is the permission.
  useEffect(() => {
    if (status !== "blocked") return;
    const onGesture = () => play();
    document.addEventListener("click", onGesture);
    document.addEventListener("touchend", onGesture);
    document.addEventListener("keydown", onGesture);
    return () => {
      document.removeEventListener("click", onGesture);
      document.removeEventListener("touchend", onGesture);
      document.removeEventListener("keydown", onGesture);
    };
  }, [status, play]);

  // Pause while the tab is hidden; resume on return only if it was playing when it was hidden.
  useEffect(() => {
    let resume = false;
    const onVisibility = () => {
      const audio = audioRef.current;
      if (!audio) return;
      if (document.hidden) {
        resume = !audio.paused;
        audio.pause();
      } else if (resume) {
        resume = false;
        play();
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [play]);

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (statusRef.current === "playing") audio.pause();
    else play();
  };

  // Without JavaScript the custom player could never start: offer the browser's own controls,
  // which honour the start offset through the media fragment.
  if (!hydrated) {
    return (
      <noscript>
        <div className={cn("music-player", className)}>
          <audio controls loop preload="none" src={`${src}#t=${startAt}`} className="music-player-native" aria-label="Music" />
        </div>
      </noscript>
    );
  }

  const playing = status === "playing";
  return (
    <div className={cn("music-player", className)} hidden={status === "unavailable"}>
      <audio ref={audioRef} src={src} loop preload="none" />
      <button
        type="button"
        onClick={toggle}
        disabled={status === "loading"}
        aria-label={playing ? "Pause music" : "Play music"}
        data-status={status}
        className={cn(
          "group inline-flex h-11 items-center gap-3 rounded-full border border-foreground/20 bg-background/60 py-1 pr-4 pl-1.5 text-xs font-semibold tracking-[0.18em] uppercase backdrop-blur-md transition-colors",
          "hover:border-foreground/60 disabled:opacity-60",
          status === "blocked" && "music-player-nudge border-foreground/60",
        )}
      >
        <span className="flex size-8 items-center justify-center rounded-full bg-foreground text-background">
          {playing ? (
            <Pause className="size-3.5" fill="currentColor" aria-hidden />
          ) : (
            <Play className="ml-0.5 size-3.5" fill="currentColor" aria-hidden />
          )}
        </span>
        <Equalizer active={playing} />
        <span>{LABELS[status === "unavailable" ? "paused" : status]}</span>
      </button>
    </div>
  );
}

/** Four bars that dance while the music plays and lie flat when it does not. */
function Equalizer({ active }: { active: boolean }) {
  return (
    <span className="equalizer flex h-3.5 items-end gap-[3px]" data-active={active} aria-hidden="true">
      <span />
      <span />
      <span />
      <span />
    </span>
  );
}
