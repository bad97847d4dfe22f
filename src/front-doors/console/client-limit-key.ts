import { isIPv6 } from "node:net";

/**
 * What the console's per-client limits (failed logins, page opens) count a client address under: an IPv4
 * address as it is (an IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64 prefix
 * (`2001:db8:1:2::/64`: one client commonly holds a whole /64, so counting its addresses one by one would let
 * it pass the limit at will), anything else (a name a proxy forwarded) as given.
 */
export function clientLimitKey(address: string): string {
  // A zone (`fe80::1%eth0`) names the link, not the client.
  const bare = address.replace(/%.*$/su, "");
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare.toLowerCase());
  if (groups === undefined) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part as two groups). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/u.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((hex) => Number.parseInt(hex, 16)));
  const [head = "", tail] = text.split("::");
  const left = parse(head);
  if (tail === undefined) return left.length === 8 ? left : undefined;
  const right = parse(tail);
  const zeros = 8 - left.length - right.length;
  return zeros < 0 ? undefined : [...left, ...new Array<number>(zeros).fill(0), ...right];
}
