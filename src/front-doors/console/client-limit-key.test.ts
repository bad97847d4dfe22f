import { describe, expect, it } from "vitest";
import { clientLimitKey } from "./client-limit-key.js";

describe("clientLimitKey", () => {
  it("keeps an IPv4 address, and counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(clientLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientLimitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientLimitKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
  });

  it("counts every IPv6 address of one /64 under that prefix, whatever its spelling", () => {
    const prefix = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:0:0:0:9",
      "2001:db8:1:2:a:b:1.2.3.4",
      "2001:db8:1:2::7%eth0",
    ]) {
      expect(clientLimitKey(address), address).toBe(prefix);
    }
    expect(clientLimitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(clientLimitKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(clientLimitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("keeps what is not an IP address as given", () => {
    for (const address of ["unknown", "", "2001:db8::1::2", "host.example"]) {
      expect(clientLimitKey(address), address).toBe(address);
    }
  });
});
