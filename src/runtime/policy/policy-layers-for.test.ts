import { describe, expect, it } from "vitest";
import { policyLayersFor } from "./policy-layers-for.js";

describe("policyLayersFor", () => {
  it("takes only the policy keys of tools, and the agent's own layers", () => {
    const layers = policyLayersFor(
      {
        tools: { profile: "coding", deny: ["exec"], toolSearch: true, approval: { require: ["exec"] } },
      },
      { id: "main", tools: { allow: ["group:fs"] }, sandbox: { tools: { deny: ["write"] } } },
    );
    expect(layers).toEqual({
      agentId: "main",
      global: { profile: "coding", deny: ["exec"] },
      agent: { allow: ["group:fs"] },
      sandbox: { deny: ["write"] },
    });
  });

  it("leaves out layers that are not configured", () => {
    expect(policyLayersFor({}, { id: "ops" })).toEqual({ agentId: "ops" });
    expect(policyLayersFor({}, { id: "ops", sandbox: {} })).toEqual({ agentId: "ops" });
  });
});
