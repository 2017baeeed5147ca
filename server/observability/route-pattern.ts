/** At most this many path segments are named in a line: a stranger's path cannot grow it. */
const MAX_SEGMENTS = 8;
const MAX_SEGMENT = 40;

/**
 * The route a request took, as a pattern without ids (issue 27): /store/12 is /store/:id,
 * /checkout/pay/pi_3Nx… is /checkout/pay/:id, and built assets and uploaded media are one pattern
 * each. A segment with a digit, or longer than a word, is an id or a token; the query is left
 * off (it may carry one). Bounded, so a bot's path makes a short line.
 */
export function routePattern(url: string | undefined): string {
  const path = (url ?? "/").split(/[?#]/, 1)[0]!;
  if (path.startsWith("/assets/")) return "/assets/*";
  if (path.startsWith("/uploads/")) return "/uploads/*";
  const segments = path.split("/").slice(1);
  const named = segments.slice(0, MAX_SEGMENTS).map((segment) => {
    if (segment === "") return "";
    const [name, extension] = /^(.*?)((?:\.[a-z]{1,5})?)$/i.exec(segment)!.slice(1) as [string, string];
    if (/\d/.test(name) || name.length > MAX_SEGMENT || /[^A-Za-z_.-]/.test(name)) return `:id${extension}`;
    return segment;
  });
  return `/${named.join("/")}${segments.length > MAX_SEGMENTS ? "/…" : ""}`;
}
