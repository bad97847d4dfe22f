import { describe, expect, it } from "vitest";
import { AGENT_ENVIRONMENT_VARIABLES, agentEnvironmentKey, resolveAgent } from "./resolve-agent.js";

/** An environment that records every variable read from it. */
function recordingEnv(values: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; read: Set<string> } {
  const read = new Set<string>();
  const env = new Proxy(values, {
    get(target, key) {
      if (typeof key === "string") read.add(key);
      return Reflect.get(target, key);
    },
  });
  return { env, read };
}

describe("agentEnvironmentKey", () => {
  it("names every variable resolveAgent reads, and no other", () => {
    const { env, read } = recordingEnv({ OPENAI_API_KEY: "sk-test", HOME: "/home/a", PATH: "/bin" });
    resolveAgent({ agents: { defaults: { workspace: "~/work" } } }, "main", { stateDir: "/state", env });
    expect([...read].sort()).toEqual(
      [...AGENT_ENVIRONMENT_VARIABLES].filter((name) => name !== "USERPROFILE").sort(),
    );
    const withoutHome = recordingEnv({});
    resolveAgent({ agents: { defaults: { workspace: "~/work" } } }, "main", {
      stateDir: "/state",
      env: withoutHome.env,
    });
    expect([...withoutHome.read].sort()).toEqual([...AGENT_ENVIRONMENT_VARIABLES].sort());
  });

  it("changes when any of those variables does, and only then", () => {
    const base = { OPENAI_API_KEY: "sk-a", HOME: "/home/a", USERPROFILE: "C:\\Users\\a", PATH: "/bin" };
    const key = agentEnvironmentKey(base);
    expect(agentEnvironmentKey({ ...base, PATH: "/usr/bin" })).toBe(key);
    for (const name of AGENT_ENVIRONMENT_VARIABLES) {
      expect(agentEnvironmentKey({ ...base, [name]: "changed" })).not.toBe(key);
    }
  });
});
