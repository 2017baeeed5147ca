import { useEffect, useRef, useState } from "react";
import { cn } from "#app/lib/utils";
import { whenIdle } from "#app/lib/when-idle";

/** The poster and the WebM encode belong to the default clip only; another uploaded video starts from black. */
export const DEFAULT_VIDEO = "/media/background.mp4";
export const DEFAULT_POSTER = "/media/background-poster.webp";
const DEFAULT_WEBM = "/media/background.webm";

export function posterFor(videoUrl: string): string | undefined {
  return videoUrl === DEFAULT_VIDEO ? DEFAULT_POSTER : undefined;
}

/** The sources to offer, smallest first: the default clip also comes as VP9 WebM. */
export function videoSources(videoUrl: string): { src: string; type?: string }[] {
  return videoUrl === DEFAULT_VIDEO
    ? [
        { src: DEFAULT_WEBM, type: "video/webm" },
        { src: DEFAULT_VIDEO, type: "video/mp4" },
      ]
    : [{ src: videoUrl }];
}

/** The visitor asked for less data or less motion: the poster stays, the clip is never fetched. */
function videoUnwanted(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return Boolean(connection?.saveData) || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * A looping, muted, decorative video behind the page (fixed to the viewport).
 * - The poster is a real <img> under the video: it is what paints first, and all that shows until
 *   the clip plays.
 * - The <video> is created only after the page has loaded and gone idle, so it never competes with
 *   the text, styles and scripts of the first paint; never under Save-Data or reduced motion (and
 *   the video stops if reduced motion is asked for while the page is open).
 * - Without JavaScript the browser plays it from a <noscript> copy, whose sources only match when
 *   the visitor has not asked for less motion.
 */
export function BackgroundVideo({ src, className, dim = "strong" }: { src: string; className?: string; dim?: "strong" | "soft" }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [attached, setAttached] = useState(false);
  const poster = posterFor(src);
  const sources = videoSources(src);

  useEffect(() => {
    setAttached(false);
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    let cancelIdle = () => {};
    const attachWhenIdle = () => {
      cancelIdle();
      cancelIdle = whenIdle(() => {
        if (!videoUnwanted()) setAttached(true);
      });
    };
    const onChange = () => {
      if (query.matches) return videoRef.current?.pause();
      attachWhenIdle();
    };
    attachWhenIdle();
    query.addEventListener("change", onChange);
    return () => {
      cancelIdle();
      query.removeEventListener("change", onChange);
    };
  }, [src]);

  // Muted autoplay is allowed everywhere; play() covers a browser that ignores the attribute on an
  // element created after the page loaded.
  useEffect(() => {
    if (attached) void videoRef.current?.play().catch(() => undefined);
  }, [attached]);

  return (
    <div aria-hidden="true" className={cn("background-video pointer-events-none fixed inset-0 -z-10 overflow-hidden bg-black", className)}>
      {poster ? <img src={poster} alt="" className="absolute inset-0 size-full object-cover" decoding="async" /> : null}
      {attached ? (
        <video
          ref={videoRef}
          key={src}
          className="background-video-media absolute inset-0 size-full object-cover"
          autoPlay
          muted
          loop
          playsInline
          preload="none"
          poster={poster}
          tabIndex={-1}
        >
          {sources.map((source) => (
            <source key={source.src} src={source.src} type={source.type} />
          ))}
        </video>
      ) : null}
      <noscript>
        <video className="background-video-media absolute inset-0 size-full object-cover" autoPlay muted loop playsInline poster={poster}>
          {sources.map((source) => (
            <source key={source.src} src={source.src} type={source.type} media="(prefers-reduced-motion: no-preference)" />
          ))}
        </video>
      </noscript>
      <div className="background-video-scrim absolute inset-0" data-dim={dim} />
      <div className="background-video-grain absolute inset-0" />
    </div>
  );
}
