import { describe, expect, it } from "vitest";
import { baseToolName, declaredTools, isMcpClientName, joinNamespace } from "./tool-names.js";

describe("tool names", () => {
  it.each([
    ["tool_search", "tool_search"],
    ["mcp__toolsift__tool_search", "tool_search"],
    ["mcp__my_server__tool_call", "tool_call"],
    ["mcp__toolsift__fixture__get", "fixture__get"],
    ["multi_agent_v1.spawn_agent", "spawn_agent"],
    ["mcp__", "mcp__"],
  ])("the base name of %j is %j", (name, base) => {
    expect(baseToolName(name)).toBe(base);
  });

  it("tells MCP client names", () => {
    expect(isMcpClientName("mcp__toolsift__tool_call")).toBe(true);
    expect(isMcpClientName("tool_call")).toBe(false);
  });

  it("joins namespaces as the clients name the same tools", () => {
    expect(joinNamespace("mcp__toolsift", "tool_search")).toBe("mcp__toolsift__tool_search");
    expect(joinNamespace("mcp__toolsift__", "tool_search")).toBe("mcp__toolsift__tool_search");
    expect(joinNamespace("multi_agent_v1", "spawn_agent")).toBe("multi_agent_v1.spawn_agent");
  });

  it("finds a declared tool by exact name first, then by base name", () => {
    const tools = declaredTools([
      { name: "mcp__a__tool_call", description: "", parameters: {} },
      { name: "tool_call", description: "", parameters: {} },
      { name: "mcp__b__tool_search", description: "", parameters: {} },
    ]);
    expect(tools.nameOf("tool_call")).toBe("tool_call");
    expect(tools.nameOf("tool_search")).toBe("mcp__b__tool_search");
    expect(tools.has("tool_describe")).toBe(false);
  });
});
