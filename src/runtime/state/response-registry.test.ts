import { describe, expect, it } from "vitest";
import { ResponseRegistry } from "./response-registry.js";

describe("ResponseRegistry", () => {
  it("remembers where each response was produced", () => {
    const registry = new ResponseRegistry();
    registry.remember("resp_a", { agentId: "main", sessionKey: "s1" });
    expect(registry.lookup("resp_a")).toEqual({ agentId: "main", sessionKey: "s1" });
    expect(registry.lookup("resp_b")).toBeUndefined();
  });

  it("is bounded: the oldest ids are forgotten first", () => {
    const registry = new ResponseRegistry(3);
    for (const id of ["r1", "r2", "r3", "r4", "r5"])
      registry.remember(id, { agentId: "main", sessionKey: id });
    expect(registry.size).toBe(3);
    expect(registry.lookup("r1")).toBeUndefined();
    expect(registry.lookup("r2")).toBeUndefined();
    expect(registry.lookup("r5")).toEqual({ agentId: "main", sessionKey: "r5" });
  });
});
