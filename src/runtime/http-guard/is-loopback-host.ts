import { isIP } from "node:net";

/**
 * True for addresses only this machine can reach: `localhost`, `127.0.0.0/8`, `::1` and the IPv4-mapped
 * `::ffff:127.x.y.z`. Anything else (`0.0.0.0`, `::`, a LAN address, a host name) counts as exposed.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  if (lower === "localhost") return true;
  if (isIP(lower) === 4) return lower.startsWith("127.");
  if (isIP(lower) === 6) {
    if (lower === "::1" || lower === "0:0:0:0:0:0:0:1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/u.exec(lower)?.[1];
    return mapped?.startsWith("127.") === true;
  }
  return false;
}
