import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isValidSessionKey, sessionLogPath, sessionLogPaths } from "./session-key.js";

describe("isValidSessionKey", () => {
  const probes: Array<[unknown, boolean]> = [
    ["main", true],
    ["s-1.2_x", true],
    ["0", true],
    ["a".repeat(128), true],
    ["a".repeat(129), false],
    ["", false],
    [".", false],
    ["..", false],
    ["../x", false],
    ["a/b", false],
    ["a\\b", false],
    ["-leading", false],
    ["_leading", false],
    ["a\u0000", false],
    ["é", false],
    [" a", false],
    [null, false],
    [7, false],
  ];
  it.each(probes)("%j → %s", (value, expected) => {
    expect(isValidSessionKey(value)).toBe(expected);
  });
});

describe("sessionLogPath", () => {
  it("places the log under agents/<agentId>/sessions", () => {
    expect(sessionLogPath("/state", "main", "abc")).toBe(
      join("/state", "agents", "main", "sessions", "abc.jsonl"),
    );
  });

  it("gives the path join gives, for state directories in every form", () => {
    for (const stateDir of ["/state", "/state/", "state", "./state", "", "/", "/a/../b//c/.", "C:\\x"])
      for (const [agentId, sessionKey] of [
        ["main", "abc"],
        ["a..b", "x.y-z_0"],
        ["0", "a".repeat(128)],
      ] as const)
        expect(sessionLogPaths(stateDir)(agentId, sessionKey)).toBe(
          join(stateDir, "agents", agentId, "sessions", `${sessionKey}.jsonl`),
        );
  });

  it("throws for an invalid key instead of building a path", () => {
    expect(() => sessionLogPath("/state", "main", "../../etc/passwd")).toThrow(/Invalid session key/);
  });
});
