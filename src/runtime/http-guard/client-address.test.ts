import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import {
  canonicalAddress,
  clientAddressOf,
  createTrustedProxies,
  describeTrustedProxyProblem,
  MAX_FORWARDED_HOPS,
} from "./client-address.js";

describe("trusted proxy entries", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.0/8",
    "192.168.1.0/24",
    "0.0.0.0/0",
    "10.1.2.3/32",
    "::1",
    "fd00::/8",
    "2001:DB8::/32",
    "2001:db8::1/128",
    "::ffff:10.0.0.0/104",
  ])("%j is accepted", (entry) => {
    expect(describeTrustedProxyProblem(entry)).toBeUndefined();
    expect(() => createTrustedProxies([entry])).not.toThrow();
  });

  it.each([
    "proxy.internal",
    "10.0.0.0/33",
    "fd00::/129",
    "10.0.0/8",
    "10.0.0.0/",
    "10.0.0.0/8/8",
    "10.0.0.0/-1",
    "10.0.0.0/x",
    "256.0.0.1",
    "fe80::1%eth0",
    "http://10.0.0.1",
    "10.0.0.1:8080",
    "",
  ])("%j is refused with what to write", (entry) => {
    expect(describeTrustedProxyProblem(entry)).toMatch(/expected an IP address or a CIDR range, e\.g\./u);
    let thrown: unknown;
    try {
      createTrustedProxies(["127.0.0.1", entry]);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code).toBe("CONFIG_INVALID");
    expect((thrown as Error).message).toContain(
      `gateway.trustedProxies[1] ${JSON.stringify(entry)}: expected`,
    );
  });

  it("matches addresses and ranges of both families, an IPv4-mapped peer as its IPv4 address", () => {
    const trusted = createTrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8", "::1"]);
    expect(trusted.trusts("127.0.0.1")).toBe(true);
    expect(trusted.trusts("127.0.0.2")).toBe(false);
    expect(trusted.trusts("10.200.3.4")).toBe(true);
    expect(trusted.trusts("11.0.0.1")).toBe(false);
    expect(trusted.trusts("fd12:3456::1")).toBe(true);
    expect(trusted.trusts("fe80::1")).toBe(false);
    expect(trusted.trusts("::1")).toBe(true);
    expect(trusted.trusts(canonicalAddress("::ffff:10.1.2.3") ?? "")).toBe(true);
    expect(trusted.trusts("not an address")).toBe(false);
  });
});

describe("canonical addresses", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1"],
    [" 10.0.0.1 ", "10.0.0.1"],
    ["::ffff:10.0.0.1", "10.0.0.1"],
    ["::FFFF:a00:1", "10.0.0.1"],
    ["2001:DB8:0:0::1", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::1", "::1"],
    ["proxy", undefined],
    ["", undefined],
  ])("%j → %j", (value, canonical) => {
    expect(canonicalAddress(value)).toBe(canonical);
  });
});

describe("the client address", () => {
  const trusted = createTrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);

  it.each([
    ["no trusted proxies: the peer, the header ignored", "10.0.0.5", "203.0.113.7", undefined, "10.0.0.5"],
    [
      "an untrusted peer's X-Forwarded-For is ignored (spoofed)",
      "198.51.100.9",
      "10.0.0.1",
      trusted,
      "198.51.100.9",
    ],
    ["an untrusted peer claiming to be a client", "198.51.100.9", "203.0.113.7", trusted, "198.51.100.9"],
    ["a trusted peer without the header: the peer", "127.0.0.1", undefined, trusted, "127.0.0.1"],
    ["a trusted peer: the address it forwards", "127.0.0.1", "203.0.113.7", trusted, "203.0.113.7"],
    ["a trusted IPv4-mapped peer", "::ffff:127.0.0.1", "203.0.113.7", trusted, "203.0.113.7"],
    [
      "a chain of trusted proxies: the right-most untrusted",
      "127.0.0.1",
      "203.0.113.7, 10.0.0.2, 10.0.0.3",
      trusted,
      "203.0.113.7",
    ],
    [
      "a client's spoofed entries left of the real one are not believed",
      "127.0.0.1",
      "10.0.0.9, 1.1.1.1, 203.0.113.7, 10.0.0.2",
      trusted,
      "203.0.113.7",
    ],
    [
      "several headers (joined with commas)",
      "10.0.0.3",
      "198.51.100.1,203.0.113.7,  10.0.0.2",
      trusted,
      "203.0.113.7",
    ],
    ["every entry a trusted proxy: the left-most", "127.0.0.1", "10.0.0.8, 10.0.0.2", trusted, "10.0.0.8"],
    [
      "an entry that is no address: the last trusted read",
      "127.0.0.1",
      "203.0.113.7, nonsense, 10.0.0.2",
      trusted,
      "10.0.0.2",
    ],
    ["an empty header: the peer", "127.0.0.1", "", trusted, "127.0.0.1"],
    ["an entry with a port", "127.0.0.1", "203.0.113.7:51234", trusted, "203.0.113.7"],
    [
      "IPv6 entries, bracketed with a port or bare",
      "fd00::1",
      "[2001:DB8::7]:443, fd00::2",
      trusted,
      "2001:db8::7",
    ],
    ["IPv6 client behind an IPv4 proxy", "127.0.0.1", "2001:db8::7", trusted, "2001:db8::7"],
    ["a peer without an address", undefined, "203.0.113.7", trusted, "unknown"],
  ])("%s", (_name, peer, forwardedFor, proxies, client) => {
    expect(clientAddressOf(peer, forwardedFor, proxies)).toBe(client);
  });

  it(`reads at most ${MAX_FORWARDED_HOPS} entries from the right`, () => {
    const chain = (proxies: number) =>
      ["203.0.113.7", ...Array.from({ length: proxies }, (_, index) => `10.0.1.${index + 1}`)].join(", ");
    expect(clientAddressOf("127.0.0.1", chain(MAX_FORWARDED_HOPS - 1), trusted)).toBe("203.0.113.7");
    // One proxy more and the client's entry is past the bound: the last trusted address read stands in.
    expect(clientAddressOf("127.0.0.1", chain(MAX_FORWARDED_HOPS), trusted)).toBe("10.0.1.1");
  });
});
