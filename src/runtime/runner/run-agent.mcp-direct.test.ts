import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ConversationItem } from "../providers/index.js";
import {
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
  scriptedProvider,
} from "./runner.test-support.js";

/** An MCP tool as createMcpToolSource lists it (origin mcp, `directName`, `mcp`). */
function mcpTool(server: string, name: string, calls: string[]): ToolDefinition {
  return {
    name,
    description: `Look things up on ${server}.`,
    origin: { kind: "mcp", owner: server },
    parameters: { type: "object", properties: { q: { type: "string" } } },
    directName: `${server}__${name}`,
    mcp: { server, tool: name },
    execute: async (args) => {
      calls.push(`${server}:${JSON.stringify(args)}`);
      return { content: [{ type: "text", text: `${server} answered` }] };
    },
  } as ToolDefinition;
}

describe("MCP tools declared directly (Tool Search off)", () => {
  let harness: RunnerHarness | undefined;
  afterEach(async () => {
    await harness?.close();
  });

  it("are named <server>__<tool>, so two servers' tools never clash, and are logged by their entry", async () => {
    const calls: string[] = [];
    const provider = scriptedProvider((_request, index): ConversationItem[] =>
      index === 0
        ? [{ type: "function_call", callId: "call_1", name: "beta__lookup", arguments: '{"q":"x"}' }]
        : [{ type: "message", role: "assistant", text: "done" }],
    );
    harness = await createRunnerHarness({
      provider,
      toolSearch: false,
      extraTools: [mcpTool("alpha", "lookup", calls), mcpTool("beta", "lookup", calls)],
    });
    const result = await harness.say("mcp-direct", "look it up");
    expect(result.status).toBe("completed");
    const declared = provider.requests[0]?.tools.map((tool) => tool.name) ?? [];
    expect(declared).toEqual(expect.arrayContaining(["alpha__lookup", "beta__lookup"]));
    expect(declared).not.toContain("lookup");
    expect(calls).toEqual(['beta:{"q":"x"}']);
    const [logged] = eventsOfType(await harness.events("mcp-direct"), "tool-result");
    expect(logged).toMatchObject({
      name: "beta__lookup",
      toolId: "mcp:beta:lookup",
      source: "mcp",
      isError: false,
    });
  });
});
