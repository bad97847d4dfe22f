import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { type BindAuth, checkBindAuth } from "./check-bind-auth.js";

const KEY = { id: "ci", token: "tsk-ci-0123456789", scopes: ["runs"] };
const NO_AUTH = "Refusing to listen on";
const BLANK = "gateway.auth.token is empty or only whitespace";

/** Every probe of the one "auth off loopback" rule, and its outcome: allowed, or refused with which message. */
const PROBES: Array<{ probe: string; bind: BindAuth; refusal?: string }> = [
  { probe: "loopback, no auth", bind: { host: "127.0.0.1" } },
  { probe: "localhost, no auth", bind: { host: "localhost" } },
  { probe: "::1, no auth", bind: { host: "::1" } },
  { probe: "127.0.0.2, no auth", bind: { host: "127.0.0.2" } },
  { probe: "0.0.0.0, no auth", bind: { host: "0.0.0.0" }, refusal: NO_AUTH },
  { probe: ":: , no auth", bind: { host: "::" }, refusal: NO_AUTH },
  { probe: "a LAN address, no auth", bind: { host: "192.168.1.10" }, refusal: NO_AUTH },
  { probe: "0.0.0.0, an empty key list", bind: { host: "0.0.0.0", keys: [] }, refusal: NO_AUTH },
  { probe: "0.0.0.0 with a token", bind: { host: "0.0.0.0", token: "tsk-0123456789" } },
  { probe: "0.0.0.0 with keys", bind: { host: "0.0.0.0", keys: [KEY] } },
  { probe: "loopback, an empty token", bind: { host: "127.0.0.1", token: "" }, refusal: BLANK },
  { probe: "loopback, a whitespace token", bind: { host: "127.0.0.1", token: " \t " }, refusal: BLANK },
  { probe: "0.0.0.0, an empty token", bind: { host: "0.0.0.0", token: "" }, refusal: BLANK },
  {
    probe: "0.0.0.0, a whitespace token beside keys",
    bind: { host: "0.0.0.0", token: "   ", keys: [KEY] },
    refusal: BLANK,
  },
];

describe("checkBindAuth: the one auth-off-loopback rule of the front doors", () => {
  it.each(PROBES)("$probe", ({ bind, refusal }) => {
    let thrown: unknown;
    try {
      checkBindAuth(bind);
    } catch (error) {
      thrown = error;
    }
    if (refusal === undefined) {
      expect(thrown).toBeUndefined();
      return;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    const message = (thrown as Error).message;
    expect(message).toContain(refusal);
    expect(message).toContain("gateway.auth.token");
    expect(message).toContain("env:TOOLSIFT_GATEWAY_TOKEN");
  });

  it("names the config file and the loopback way out when one is given", () => {
    expect(() => checkBindAuth({ host: "0.0.0.0", configPath: "/etc/toolsift.json" })).toThrow(
      /gateway\.auth\.token or gateway\.auth\.keys in \/etc\/toolsift\.json .*Or bind to 127\.0\.0\.1\./u,
    );
    expect(() => checkBindAuth({ host: "127.0.0.1", token: " ", configPath: "/etc/toolsift.json" })).toThrow(
      "gateway.auth.token is empty or only whitespace in /etc/toolsift.json",
    );
  });
});
