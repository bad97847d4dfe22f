import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { ToolsiftError } from "../../shared/errors/index.js";
import { isLoopbackHost } from "./is-loopback-host.js";
import { quoteHeader } from "./quote-header.js";
import type { GuardVerdict } from "./types.js";

/** Host names every loopback-bound server answers to (any port, or none). */
const LOOPBACK_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** A `Host` header: a name or IPv4 address, or a bracketed IPv6 address, then an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::[0-9]{1,5})?$/u;
/** A DNS host name (letters, digits, hyphens, dots). */
const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/u;
/** Bind addresses that listen on every interface, loopback included. */
const WILDCARD_ADDRESSES: ReadonlySet<string> = new Set(["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"]);

/** Which `Host` values a server answers to. */
export type HostRule = {
  /** The address the server listens on (`--bind`, `gateway.bind`). */
  bindHost: string;
  /** More names it answers to, any port (`gateway.allowedHosts`). Default: none. */
  allowedHosts?: readonly string[];
  /**
   * The machine's own addresses, accepted on a wildcard bind (`0.0.0.0`, `::`). Default: the addresses of
   * `os.networkInterfaces()` at the time the check is built.
   */
  interfaceAddresses?: readonly string[];
};

/**
 * A check of `Host` headers (the DNS rebinding guard): on a loopback bind, `localhost`, `127.0.0.1` and
 * `[::1]`; on any bind, the bind address itself and `allowedHosts`; on a wildcard bind also the loopback names
 * and the machine's own addresses. Any port, or none. Anything else, a malformed or missing Host included, is
 * a 403 `forbidden_host`. A malformed `allowedHosts` entry throws CONFIG_INVALID.
 */
export function createHostCheck(rule: HostRule): (host: string | undefined) => GuardVerdict {
  const answered = new Set<string>();
  const bind = canonicalHost(rule.bindHost.toLowerCase());
  if (bind !== undefined) answered.add(bind);
  const wildcard = WILDCARD_ADDRESSES.has(rule.bindHost.toLowerCase());
  if (wildcard || isLoopbackHost(rule.bindHost)) for (const name of LOOPBACK_HOST_NAMES) answered.add(name);
  if (wildcard) {
    for (const address of rule.interfaceAddresses ?? ownAddresses()) {
      const canonical = canonicalHost(isIP(address) === 6 ? `[${address}]` : address);
      if (canonical !== undefined) answered.add(canonical);
    }
  }
  for (const [index, entry] of (rule.allowedHosts ?? []).entries()) {
    const problem = describeAllowedHostProblem(entry);
    const canonical = problem === undefined ? canonicalHost(bracketed(entry.toLowerCase())) : undefined;
    if (canonical === undefined) {
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `gateway.allowedHosts[${index}] ${quoteHeader(entry)}: ${problem ?? "expected a host name or IP address"}.`,
      );
    }
    answered.add(canonical);
  }
  return (host) => {
    const name = host === undefined ? undefined : hostOfHeader(host);
    if (name !== undefined && answered.has(name)) return undefined;
    const what =
      host === undefined || host === "" ? "A request without a Host header" : `Host ${quoteHeader(host)}`;
    return {
      status: 403,
      code: "forbidden_host",
      message:
        `${what} is refused: this server answers only to ${[...answered].slice(0, 8).join(", ")} ` +
        "(a guard against DNS rebinding). Use one of those names, or add yours to gateway.allowedHosts.",
    };
  };
}

/** What is wrong with a `gateway.allowedHosts` entry, or `undefined` for a host name or IP address. */
export function describeAllowedHostProblem(value: string): string | undefined {
  const lower = value.toLowerCase();
  if (lower.includes("://"))
    return 'leave out the scheme: write the host name alone, e.g. "toolsift.internal"';
  if (/[/?#]/u.test(lower)) return 'leave out the path: write the host name alone, e.g. "toolsift.internal"';
  if (isIP(lower) !== 0) return undefined;
  if (lower.startsWith("[") && lower.endsWith("]") && isIP(lower.slice(1, -1)) === 6) return undefined;
  if (/:[0-9]*$/u.test(lower)) return "leave out the port: every port of an allowed host is accepted";
  if (HOST_NAME.test(lower)) return undefined;
  return 'expected a host name or IP address, e.g. "toolsift.internal" or "192.168.1.20"';
}

/** The host part of a Host header in canonical form (IP addresses as URLs write them), or undefined if malformed. */
function hostOfHeader(header: string): string | undefined {
  const match = HOST_HEADER.exec(header.toLowerCase());
  return match?.[1] === undefined ? undefined : canonicalHost(match[1]);
}

function canonicalHost(host: string): string | undefined {
  const candidate = isIP(host) === 6 ? `[${host}]` : host;
  if (!URL.canParse(`http://${candidate}/`)) return undefined;
  return new URL(`http://${candidate}/`).hostname;
}

function bracketed(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address.split("%", 1)[0] ?? entry.address),
  );
}
