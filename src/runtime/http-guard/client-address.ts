import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import type { Context } from "hono";
import { ToolsiftError } from "../../shared/errors/index.js";
import { quoteHeader } from "./quote-header.js";

/**
 * Entries of `X-Forwarded-For` read from the right at most: a chain of proxies longer than this is not
 * believed past it (the client is then the last trusted address read), so a client cannot make each request
 * walk a long header.
 */
export const MAX_FORWARDED_HOPS = 32;

/** The address of a request whose socket has none (a test's fake request). */
export const UNKNOWN_CLIENT_ADDRESS = "unknown";

/** The proxies a server believes about `X-Forwarded-For` (`gateway.trustedProxies`). */
export type TrustedProxies = {
  /** True when `address` (in `canonicalAddress` form) is one of the trusted proxies. */
  trusts(address: string): boolean;
};

/** Reads the client address of a request (`clientAddressOf` over the server's trusted proxies). */
export type ClientAddressReader = (c: Context) => string;

/**
 * What is wrong with a `gateway.trustedProxies` entry, or `undefined` for an IP address (`"127.0.0.1"`,
 * `"::1"`) or a CIDR range (`"10.0.0.0/8"`, `"fd00::/8"`).
 */
export function describeTrustedProxyProblem(value: string): string | undefined {
  return parseRange(value) === undefined
    ? 'expected an IP address or a CIDR range, e.g. "127.0.0.1", "10.0.0.0/8" or "fd00::/8" (host names are not resolved)'
    : undefined;
}

/**
 * The trusted proxies of `entries` (IP addresses and CIDR ranges, IPv4 and IPv6), matched with Node's
 * `net.BlockList`. A bad entry throws CONFIG_INVALID naming `gateway.trustedProxies[i]`.
 */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const [index, entry] of entries.entries()) {
    const range = parseRange(entry);
    if (range === undefined) {
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `gateway.trustedProxies[${index}] ${quoteHeader(entry)}: ${describeTrustedProxyProblem(entry)}.`,
      );
    }
    list.addSubnet(range.address, range.prefix, range.family);
  }
  return {
    trusts: (address) => {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
    },
  };
}

/**
 * The client of a request: the TCP peer, unless the peer is a trusted proxy; then the right-most address of
 * `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it was reached from,
 * so entries left of it were written by the client and are not believed). When every entry read is a trusted
 * proxy, or an entry is not an IP address (a proxy that wrote nonsense, or a client that could choose its
 * own address), the client is the last trusted address read. Without `trusted`, the peer. Addresses are in
 * `canonicalAddress` form; a peer with none is `"unknown"`.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies | undefined,
): string {
  const client = peer === undefined ? undefined : canonicalAddress(peer);
  if (client === undefined) return UNKNOWN_CLIENT_ADDRESS;
  if (trusted === undefined || !trusted.trusts(client) || forwardedFor === undefined) return client;
  const hops = forwardedFor.split(",");
  let nearest = client;
  for (let index = hops.length - 1; index >= Math.max(0, hops.length - MAX_FORWARDED_HOPS); index -= 1) {
    const hop = forwardedAddress(hops[index] ?? "");
    if (hop === undefined) return nearest;
    if (!trusted.trusts(hop)) return hop;
    nearest = hop;
  }
  return nearest;
}

/** A reader of the client address of a Hono request on Node's server, trusting `trustedProxies` (none: the peer). */
export function createClientAddressReader(trustedProxies?: readonly string[]): ClientAddressReader {
  const trusted =
    trustedProxies === undefined || trustedProxies.length === 0
      ? undefined
      : createTrustedProxies(trustedProxies);
  return (c) => {
    const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress;
    return clientAddressOf(
      peer,
      trusted === undefined ? undefined : c.req.header("x-forwarded-for"),
      trusted,
    );
  };
}

/**
 * An IP address in one spelling per address: IPv4 dotted, IPv6 lowercase and compressed, an IPv4-mapped IPv6
 * address (`::ffff:10.0.0.1`, how a dual-stack socket shows an IPv4 peer) as IPv4, a zone (`%eth0`) dropped.
 * `undefined` when it is no IP address.
 */
export function canonicalAddress(value: string): string | undefined {
  const address = value.trim().split("%", 1)[0] ?? "";
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/u.exec(host);
  if (mapped?.[1] === undefined || mapped[2] === undefined) return host;
  const high = Number.parseInt(mapped[1], 16);
  const low = Number.parseInt(mapped[2], 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** One `X-Forwarded-For` entry: an address, `1.2.3.4:port`, `[v6]` or `[v6]:port`; undefined otherwise. */
function forwardedAddress(entry: string): string | undefined {
  const trimmed = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/u.exec(trimmed);
  if (bracketed?.[1] !== undefined)
    return isIP(bracketed[1]) === 6 ? canonicalAddress(bracketed[1]) : undefined;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/u.exec(trimmed);
  return canonicalAddress(withPort?.[1] ?? trimmed);
}

type Range = { address: string; prefix: number; family: "ipv4" | "ipv6" };

/** `address` or `address/prefix` (0–32 for IPv4, 0–128 for IPv6); undefined when it is neither. */
function parseRange(value: string): Range | undefined {
  const [address = "", prefix, extra] = value.trim().split("/");
  if (extra !== undefined || address.includes("%")) return undefined;
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return undefined;
  const family = isIP(canonical) === 4 ? "ipv4" : "ipv6";
  const bits = family === "ipv4" ? 32 : 128;
  if (prefix === undefined) return { address: canonical, prefix: bits, family };
  if (!/^\d{1,3}$/u.test(prefix)) return undefined;
  const length = Number(prefix);
  // A mapped IPv6 range names IPv4 addresses: its prefix counts from the mapped part.
  const mappedLength = isIP(address) === 6 && family === "ipv4" ? length - 96 : length;
  if (mappedLength < 0 || mappedLength > bits || length > 128) return undefined;
  return { address: canonical, prefix: mappedLength, family };
}
