import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "./is-loopback-host.js";

describe("isLoopbackHost", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["LOCALHOST", true],
    ["::1", true],
    ["[::1]", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.10", false],
    ["10.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["fe80::1", false],
    ["example.com", false],
    ["127.0.0.1.example.com", false],
    ["localhost.example.com", false],
    ["", false],
  ])("%s → %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
