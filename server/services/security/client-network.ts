import net from "node:net";

/**
 * The network a caller's address stands for, the key of every per-address allowance: an IPv4
 * address itself (an IPv4-mapped IPv6 one, ::ffff:1.2.3.4, is that IPv4 address), an IPv6
 * address its /64. One subscriber line or one cloud host is routinely given a whole /64, so
 * counting each of its 2^64 addresses apart would give one machine unlimited allowances. Anything
 * that is not an address ("local" under `npm run dev`) is its own key; a key is unchanged by a
 * second fold.
 */
export function networkOf(address: string): string {
  const ip = address.trim();
  if (net.isIPv4(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return address.slice(0, 100);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (its zone dropped), or null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  const ip = text.split("%")[0]!;
  if (!net.isIPv6(ip)) return null;
  const halves = ip.split("::");
  const parts = (half: string | undefined) => (half ? half.split(":") : []);
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  const words = (list: string[]) =>
    list.flatMap((part) => {
      if (!part.includes(".")) return [Number.parseInt(part, 16)];
      const [a, b, c, d] = part.split(".").map(Number);
      return [(a! << 8) | b!, (c! << 8) | d!];
    });
  const front = words(head);
  const back = words(tail);
  const zeros = halves.length === 2 ? 8 - front.length - back.length : 0;
  const groups = [...front, ...Array<number>(zeros).fill(0), ...back];
  return groups.length === 8 ? groups : null;
}
