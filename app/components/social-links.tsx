import { cn } from "#app/lib/utils";

/*
 * The three networks of the spec (photo-sharing, general social, short-video), all under the one
 * configured handle. Facebook rather than X for the general network: X handles cannot contain the
 * dots the default handle ("legacy.worn") has, Facebook, Instagram and TikTok names can.
 * Glyphs: Simple Icons (CC0), one filled path on a 24x24 grid each, in one static sprite served by
 * the store (public/images/social-icons.svg): the page asks no third party for anything, and the
 * paths are not part of the page's JavaScript (decision 0029).
 */
const NETWORKS = [
  {
    name: "Instagram",
    href: (handle: string) => `https://www.instagram.com/${handle}/`,
    icon: "instagram",
  },
  {
    name: "Facebook",
    href: (handle: string) => `https://www.facebook.com/${handle}`,
    icon: "facebook",
  },
  {
    name: "TikTok",
    href: (handle: string) => `https://www.tiktok.com/@${handle}`,
    icon: "tiktok",
  },
] as const;

export function socialProfiles(handle: string) {
  const clean = handle.trim().replace(/^@/, "");
  return NETWORKS.map((network) => ({ name: network.name, href: network.href(encodeURIComponent(clean)), icon: network.icon }));
}

/** Round icon links to the brand's profiles; nothing at all when no handle is configured. */
export function SocialLinks({ brand, handle, className }: { brand: string; handle: string; className?: string }) {
  if (!handle.trim()) return null;
  const at = `@${handle.trim().replace(/^@/, "")}`;
  return (
    <nav aria-label="Social media" className={cn("flex items-center gap-3", className)}>
      <ul className="flex items-center gap-3">
        {socialProfiles(handle).map((profile) => (
          <li key={profile.name}>
            <a
              href={profile.href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`${brand} on ${profile.name} (opens in a new tab)`}
              title={`${profile.name} ${at}`}
              className="social-link flex size-11 items-center justify-center rounded-full border border-foreground/20 bg-background/30 text-foreground/80 backdrop-blur-sm transition-colors hover:border-foreground hover:bg-foreground hover:text-background"
            >
              <svg viewBox="0 0 24 24" className="size-[18px]" fill="currentColor" aria-hidden="true" focusable="false">
                <use href={`/images/social-icons.svg#${profile.icon}`} />
              </svg>
            </a>
          </li>
        ))}
      </ul>
      <span className="text-xs font-medium tracking-[0.2em] text-muted-foreground uppercase">{at}</span>
    </nav>
  );
}
