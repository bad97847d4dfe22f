import { describe, expect, it } from "vitest";
import { toCatalogEntry } from "../../core/catalog/index.js";
import { applyToolPolicy } from "./apply-tool-policy.js";
import { ALL_FIXTURE_IDS, policyFixture } from "./policy.test-support.js";
import { policyDecision } from "./policy-decision.js";
import type { PolicyLayers } from "./types.js";

const NON_CORE_IDS = ALL_FIXTURE_IDS.filter((id) => !id.startsWith("native:core:"));
const FS_IDS = ["native:core:read", "native:core:write", "native:core:edit"];

function admittedIds(layers: PolicyLayers): string[] {
  return applyToolPolicy(policyFixture(), layers).admitted.map((tool) => toCatalogEntry(tool)?.id ?? "?");
}

function reasonFor(layers: PolicyLayers, id: string): string | undefined {
  return applyToolPolicy(policyFixture(), layers).denied.find((denied) => denied.id === id)?.reason;
}

describe("applyToolPolicy: one layer", () => {
  const table: Array<[name: string, layers: PolicyLayers, admitted: readonly string[]]> = [
    ["no layers admit everything", {}, ALL_FIXTURE_IDS],
    ["an empty layer admits everything", { global: {} }, ALL_FIXTURE_IDS],
    ["profile full (the default) admits everything", { global: { profile: "full" } }, ALL_FIXTURE_IDS],
    [
      "profile minimal admits no core tool, and every other tool",
      { global: { profile: "minimal" } },
      NON_CORE_IDS,
    ],
    [
      "profile coding admits the core coding primitives, not other core tools",
      { global: { profile: "coding" } },
      ALL_FIXTURE_IDS.filter((id) => id !== "native:core:web_fetch"),
    ],
    [
      "alsoAllow adds a core tool back on top of profile minimal",
      { global: { profile: "minimal", alsoAllow: ["read"] } },
      ["native:core:read", ...NON_CORE_IDS],
    ],
    [
      "alsoAllow adds a non-primitive core tool on top of profile coding",
      { global: { profile: "coding", alsoAllow: ["web_fetch"] } },
      ALL_FIXTURE_IDS,
    ],
    [
      "a non-empty allow list admits only its matches",
      { global: { allow: ["group:fs", "weather_*"] } },
      [...FS_IDS, "native:weather:weather_alerts"],
    ],
    ["an empty allow list is the same as none", { global: { allow: [] } }, ALL_FIXTURE_IDS],
    [
      "allow plus alsoAllow admits the union",
      { global: { allow: ["group:fs"], alsoAllow: ["mcp:calendar"] } },
      [...FS_IDS, "mcp:calendar:create_event"],
    ],
    [
      "a non-empty allow list replaces the profile (an explicit core name is admitted)",
      { global: { profile: "minimal", allow: ["native:core:read"] } },
      ["native:core:read"],
    ],
    [
      "deny removes what it matches",
      { global: { deny: ["exec", "group:mcp"] } },
      ALL_FIXTURE_IDS.filter((id) => id !== "native:core:exec" && !id.startsWith("mcp:")),
    ],
    [
      "deny wins over allow",
      { global: { allow: ["group:fs"], deny: ["write"] } },
      ["native:core:read", "native:core:edit"],
    ],
    [
      "deny wins over alsoAllow",
      { global: { profile: "minimal", alsoAllow: ["exec", "read"], deny: ["exec"] } },
      ["native:core:read", ...NON_CORE_IDS],
    ],
    ["deny * denies everything, even what allow names", { global: { allow: ["read"], deny: ["*"] } }, []],
    [
      "deny of a core group leaves MCP look-alikes alone",
      { global: { deny: ["group:fs"] } },
      ALL_FIXTURE_IDS.filter((id) => !FS_IDS.includes(id)),
    ],
    [
      "deny by id removes only that tool",
      { global: { deny: ["native:core:read"] } },
      ALL_FIXTURE_IDS.filter((id) => id !== "native:core:read"),
    ],
    [
      "deny by owner removes a whole plugin",
      { global: { deny: ["plugin:weather"] } },
      ALL_FIXTURE_IDS.filter((id) => !id.startsWith("native:weather:")),
    ],
    ["allow of an unknown group admits nothing", { global: { allow: ["group:everything"] } }, []],
    ["deny of an unknown group denies nothing", { global: { deny: ["group:everything"] } }, ALL_FIXTURE_IDS],
  ];

  it.each(table)("%s", (_name, layers, admitted) => {
    expect(admittedIds(layers)).toEqual([...admitted]);
  });
});

describe("applyToolPolicy: layers narrow, never widen", () => {
  const table: Array<[name: string, layers: PolicyLayers, admitted: readonly string[]]> = [
    [
      "the agent layer narrows the global one",
      { global: {}, agent: { allow: ["group:fs", "weather_*"], deny: ["edit"] } },
      ["native:core:read", "native:core:write", "native:weather:weather_alerts"],
    ],
    [
      "an agent allow naming a globally denied tool leaves it denied",
      { global: { deny: ["exec"] }, agent: { allow: ["exec", "native:core:read"] } },
      ["native:core:read"],
    ],
    [
      "an agent alsoAllow naming a globally denied tool leaves it denied",
      { global: { deny: ["exec"] }, agent: { alsoAllow: ["exec"] } },
      ALL_FIXTURE_IDS.filter((id) => id !== "native:core:exec"),
    ],
    [
      "an agent alsoAllow naming a tool the global allow list excludes leaves it out",
      { global: { allow: ["group:fs"] }, agent: { alsoAllow: ["exec", "group:mcp"] } },
      FS_IDS,
    ],
    [
      "an agent profile full cannot undo a global profile minimal",
      { global: { profile: "minimal" }, agent: { profile: "full" } },
      NON_CORE_IDS,
    ],
    [
      "an agent alsoAllow cannot add a core tool the global profile excludes",
      { global: { profile: "minimal" }, agent: { alsoAllow: ["read"] } },
      NON_CORE_IDS,
    ],
    [
      "an agent profile minimal narrows a global full",
      { global: { profile: "full" }, agent: { profile: "minimal" } },
      NON_CORE_IDS,
    ],
    [
      "the sandbox layer narrows the agent layer",
      { agent: { allow: ["group:fs", "group:runtime"] }, sandbox: { deny: ["group:runtime"] } },
      FS_IDS,
    ],
    [
      "a sandbox allow cannot bring back what the agent denies",
      { agent: { deny: ["group:mcp"] }, sandbox: { allow: ["group:mcp"] } },
      [],
    ],
    [
      "a sandbox alsoAllow cannot bring back what the global layer denies",
      { global: { deny: ["group:runtime"] }, sandbox: { alsoAllow: ["exec"] } },
      ALL_FIXTURE_IDS.filter((id) => id !== "native:core:exec" && id !== "native:core:process"),
    ],
    ["a sandbox profile minimal removes core tools", { sandbox: { profile: "minimal" } }, NON_CORE_IDS],
    [
      "all three layers together",
      {
        global: { deny: ["notes_add"] },
        agent: { allow: ["group:fs", "group:plugins", "exec"] },
        sandbox: { deny: ["write"] },
      },
      [
        "native:core:read",
        "native:core:edit",
        "native:core:exec",
        "native:weather:get_forecast",
        "native:weather:weather_alerts",
        "native:weather:weather.v2+beta",
      ],
    ],
  ];

  it.each(table)("%s", (_name, layers, admitted) => {
    expect(admittedIds(layers)).toEqual([...admitted]);
  });
});

describe("applyToolPolicy: denial reasons name the layer and the selector", () => {
  const table: Array<[layers: PolicyLayers, id: string, reason: string]> = [
    [{ global: { deny: ["exec"] } }, "native:core:exec", 'denied by tools.deny "exec"'],
    [{ global: { deny: ["group:runtime"] } }, "native:core:process", 'denied by tools.deny "group:runtime"'],
    [{ global: { allow: ["group:fs"] } }, "native:core:exec", "not in tools.allow"],
    [{ global: { profile: "minimal" } }, "native:core:read", 'not admitted by tools.profile "minimal"'],
    [{ global: { profile: "coding" } }, "native:core:web_fetch", 'not admitted by tools.profile "coding"'],
    [
      { agentId: "main", agent: { allow: ["read"] } },
      "native:core:exec",
      "not in agents.list[main].tools.allow",
    ],
    [
      { agentId: "ops", agent: { deny: ["mcp:*"] } },
      "mcp:files:read",
      'denied by agents.list[ops].tools.deny "mcp:*"',
    ],
    [
      { agentId: "main", sandbox: { deny: ["group:runtime"] } },
      "native:core:exec",
      'denied by agents.list[main].sandbox.tools.deny "group:runtime"',
    ],
    [
      { agentId: "main", global: { deny: ["exec"] }, agent: { deny: ["exec"] }, sandbox: { deny: ["exec"] } },
      "native:core:exec",
      'denied by tools.deny "exec"',
    ],
    [
      { agentId: "main", global: { deny: ["exec"] }, agent: { allow: ["exec"], alsoAllow: ["exec"] } },
      "native:core:exec",
      'denied by tools.deny "exec"',
    ],
    [{ agent: { allow: ["read"] } }, "native:core:exec", "not in agents.list[].tools.allow"],
  ];

  it.each(table)("%j: %s", (layers, id, reason) => {
    expect(reasonFor(layers, id)).toBe(reason);
  });

  it("reports every denied tool with its name and id, and keeps input order for admitted ones", () => {
    const tools = policyFixture();
    const result = applyToolPolicy(tools, { global: { deny: ["group:mcp", "group:client"] } });
    expect(result.denied).toEqual([
      { name: "create_event", id: "mcp:calendar:create_event", reason: 'denied by tools.deny "group:mcp"' },
      { name: "read", id: "mcp:files:read", reason: 'denied by tools.deny "group:mcp"' },
      { name: "pick_file", id: "client:client:pick_file", reason: 'denied by tools.deny "group:client"' },
    ]);
    expect(result.admitted).toEqual(tools.slice(0, 11));
    expect(result.admitted[0]).toBe(tools[0]);
  });
});

describe("policyDecision", () => {
  it("answers the runtime re-check with the same reasons", () => {
    const [read, , , exec] = policyFixture().map((tool) => toCatalogEntry(tool));
    const layers: PolicyLayers = {
      agentId: "main",
      global: { deny: ["exec"] },
      agent: { allow: ["group:fs"] },
    };
    expect(policyDecision(read!, layers)).toEqual({ allowed: true });
    expect(policyDecision(exec!, layers)).toEqual({ allowed: false, reason: 'denied by tools.deny "exec"' });
    expect(policyDecision(exec!, { agentId: "main", agent: { allow: ["group:fs"] } })).toEqual({
      allowed: false,
      reason: "not in agents.list[main].tools.allow",
    });
  });

  it("fails closed on a profile it does not know", () => {
    const read = toCatalogEntry(policyFixture()[0]!)!;
    const settings = { profile: "everything" } as unknown as PolicyLayers["global"] & object;
    expect(policyDecision(read, { global: settings })).toEqual({
      allowed: false,
      reason: 'not admitted by tools.profile "everything"',
    });
  });

  it("ignores selector list items that are not strings", () => {
    const read = toCatalogEntry(policyFixture()[0]!)!;
    const odd = { deny: [7, null, { read: true }] } as unknown as PolicyLayers["global"] & object;
    expect(policyDecision(read, { global: odd })).toEqual({ allowed: true });
  });

  it("fails closed on allow or deny that is not a list", () => {
    const read = toCatalogEntry(policyFixture()[0]!)!;
    const allowText = { allow: "exec" } as unknown as PolicyLayers["global"] & object;
    const denyText = { deny: "exec" } as unknown as PolicyLayers["global"] & object;
    expect(policyDecision(read, { global: allowText })).toEqual({
      allowed: false,
      reason: "denied because tools.allow is not a list of selectors",
    });
    expect(policyDecision(read, { global: denyText })).toEqual({
      allowed: false,
      reason: "denied because tools.deny is not a list of selectors",
    });
  });
});
