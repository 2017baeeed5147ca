import { useEffect, useRef } from "react";
import { cn } from "~/lib/utils";

/** The poster belongs to the default clip only; another uploaded video starts from black. */
export const DEFAULT_VIDEO = "/media/background.mp4";
export const DEFAULT_POSTER = "/media/background-poster.webp";

export function posterFor(videoUrl: string): string | undefined {
  return videoUrl === DEFAULT_VIDEO ? DEFAULT_POSTER : undefined;
}

/**
 * A looping, muted, decorative video behind the page (fixed to the viewport).
 * - The poster is a real <img> under the video, so the page paints at once and the first frame is
 *   there before a byte of video arrives.
 * - Reduced motion, even without JavaScript: the <source> only matches when the visitor has not
 *   asked for less motion, so the browser never fetches the clip and only the poster shows.
 * - With JavaScript it also follows a change of that preference while the page is open.
 */
export function BackgroundVideo({ src, className, dim = "strong" }: { src: string; className?: string; dim?: "strong" | "soft" }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const poster = posterFor(src);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || typeof window.matchMedia !== "function") return;
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    if (query.matches) video.pause();
    const onChange = () => {
      if (query.matches) return video.pause();
      // The <source> did not match when the page loaded: select it again before playing.
      if (!video.currentSrc) video.load();
      void video.play().catch(() => undefined);
    };
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [src]);

  return (
    <div aria-hidden="true" className={cn("background-video pointer-events-none fixed inset-0 -z-10 overflow-hidden bg-black", className)}>
      {poster ? <img src={poster} alt="" className="absolute inset-0 size-full object-cover" decoding="async" /> : null}
      <video
        ref={videoRef}
        key={src}
        className="background-video-media absolute inset-0 size-full object-cover"
        autoPlay
        muted
        loop
        playsInline
        preload="auto"
        poster={poster}
        tabIndex={-1}
      >
        <source src={src} media="(prefers-reduced-motion: no-preference)" />
      </video>
      <div className="background-video-scrim absolute inset-0" data-dim={dim} />
      <div className="background-video-grain absolute inset-0" />
    </div>
  );
}
