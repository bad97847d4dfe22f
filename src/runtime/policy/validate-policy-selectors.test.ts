import { describe, expect, it } from "vitest";
import { validatePolicySelectors } from "./validate-policy-selectors.js";

describe("validatePolicySelectors", () => {
  it("accepts every selector kind", () => {
    expect(
      validatePolicySelectors({
        profile: "coding",
        allow: ["read", "weather_*", "exe?", "native:weather:get_forecast", "mcp:calendar:*"],
        alsoAllow: ["group:fs", "group:runtime", "group:plugins", "group:mcp", "group:client"],
        deny: ["plugin:weather", "mcp:calendar"],
      }),
    ).toEqual([]);
    expect(validatePolicySelectors(undefined)).toEqual([]);
    expect(validatePolicySelectors({})).toEqual([]);
  });

  const table: Array<[settings: unknown, label: string | undefined, problems: string[]]> = [
    [
      { allow: ["group:everything"] },
      undefined,
      [
        'tools.allow[0]: "group:everything" unknown group matches nothing; known groups: group:fs, group:runtime, group:plugins, group:mcp, group:client',
      ],
    ],
    [
      { deny: ["read", "group:x"] },
      "agents.list[main].tools",
      [
        'agents.list[main].tools.deny[1]: "group:x" unknown group matches nothing; known groups: group:fs, group:runtime, group:plugins, group:mcp, group:client',
      ],
    ],
    [{ alsoAllow: [""] }, undefined, ['tools.alsoAllow[0]: "" an empty selector matches nothing']],
    [
      { allow: [" exec"] },
      undefined,
      ['tools.allow[0]: " exec" has leading or trailing spaces and matches nothing; write "exec"'],
    ],
    [{ allow: ["plugin:"] }, undefined, ['tools.allow[0]: "plugin:" names no plugin id']],
    [{ allow: ["mcp:"] }, undefined, ['tools.allow[0]: "mcp:" names no MCP server']],
    [
      { deny: ["core:read"] },
      undefined,
      [
        'tools.deny[0]: "core:read" is not a tool name, a glob, a group (group:fs), an owner (plugin:<id>, mcp:<server>) or a tool id (<source>:<owner>:<name>, e.g. native:weather:get_forecast); it matches nothing',
      ],
    ],
    [{ deny: [3] }, undefined, ["tools.deny[0]: expected a selector string"]],
    [
      { deny: "exec" },
      undefined,
      ['tools.deny: expected a list of selectors, e.g. ["group:fs", "weather_*"]'],
    ],
    [{ profile: "max" }, undefined, ['tools.profile: expected "minimal" | "coding" | "full"']],
    [[], undefined, ["tools: expected an object with profile, allow, alsoAllow and deny"]],
    [
      null,
      "agents.list[a].sandbox.tools",
      ["agents.list[a].sandbox.tools: expected an object with profile, allow, alsoAllow and deny"],
    ],
  ];

  it.each(table)("%j reports its problems", (settings, label, problems) => {
    expect(validatePolicySelectors(settings, label)).toEqual(problems);
  });

  it("cuts a huge selector in the report", () => {
    const [problem] = validatePolicySelectors({ allow: [`group:${"x".repeat(5000)}`] });
    expect(problem!.length).toBeLessThan(400);
  });
});
