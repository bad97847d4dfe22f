import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs fixture module without types
import { hostileTools } from "../../../test/fixtures/mcp/fixture-tools.mjs";
import type { ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import { createToolSearch } from "../../core/tool-search/index.js";
import { createMcpToolSource } from "./create-mcp-tool-source.js";
import { stdioFixture } from "./mcp.test-support.js";
import type { McpToolSource } from "./types.js";

const native: ToolDefinition = {
  name: "local_weather",
  description: "Current weather for a city.",
  origin: { kind: "plugin", owner: "weather" },
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: async () => ({ content: [{ type: "text", text: "sunny" }] }),
};

let source: McpToolSource;
beforeAll(async () => {
  source = createMcpToolSource({
    one: stdioFixture({ prefix: "one", count: 150, hostile: true }),
    two: stdioFixture({ prefix: "two", count: 150 }),
  });
  await source.start();
});
afterAll(async () => {
  await source.close();
});

function control(search: ReturnType<typeof createToolSearch>, name: string): ToolDefinition {
  const found = search.modelTools().find((tool) => tool.name === name);
  if (!found) throw new Error(`no control ${name}`);
  return found;
}

function text(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

describe("MCP tools through createToolSearch", () => {
  it("declares only the controls, finds MCP tools by search, and calls them through tool_call", async () => {
    const search = createToolSearch({ tools: [native, ...source.tools()] });
    try {
      expect(search.modelTools().map((tool) => tool.name)).toEqual([
        "tool_search",
        "tool_describe",
        "tool_call",
      ]);
      const [best] = search.search("export a shipment from the two system", { limit: 3 });
      expect(best).toMatchObject({
        id: "mcp:two:two_export_shipment",
        source: "mcp",
        owner: "two",
        input: "unknown",
        mcp: { server: "two", tool: "two_export_shipment" },
      });
      const described = await control(search, "tool_describe").execute(
        { id: "mcp:two:two_export_shipment" },
        {},
      );
      expect((described.details as { parameters: unknown }).parameters).toEqual({
        type: "object",
        properties: {
          id: { type: "string", description: "The shipment id." },
          note: { type: "string", description: "Optional free text." },
        },
        required: ["id"],
      });
      const called = await control(search, "tool_call").execute(
        { id: "mcp:two:two_export_shipment", args: { id: "s-1" } },
        { toolCallId: "c1" },
      );
      expect(called.isError).toBeUndefined();
      expect(text(called)).toContain('two_export_shipment ok {\\"id\\":\\"s-1\\"}');
      expect(text(called)).toContain("EXTERNAL_UNTRUSTED_CONTENT");
      expect(search.telemetry()).toMatchObject({ sources: { native: 1, mcp: 312 }, callCount: 1 });
    } finally {
      search.close();
    }
  });

  it("keeps a tool name two servers share: both reachable by id, the bare name is ambiguous", async () => {
    const search = createToolSearch({ tools: source.tools() });
    try {
      const ids = search.search("shared_lookup", { limit: 5 }).map((candidate) => candidate.id);
      expect(ids).toEqual(expect.arrayContaining(["mcp:one:shared_lookup", "mcp:two:shared_lookup"]));
      const call = control(search, "tool_call");
      const one = await call.execute({ id: "mcp:one:shared_lookup", args: {} }, {});
      const two = await call.execute({ id: "mcp:two:shared_lookup", args: {} }, {});
      expect(text(one)).toContain("shared_lookup from one");
      expect(text(two)).toContain("shared_lookup from two");
      const bare = await call.execute({ id: "shared_lookup", args: {} }, {});
      expect(bare.isError).toBe(true);
      expect(text(bare)).toBe("Ambiguous tool name: shared_lookup; use an exact tool id.");
    } finally {
      search.close();
    }
  });

  it("never puts MCP names, descriptions or hostile text into the prompt directory", () => {
    const search = createToolSearch({ tools: [native, ...source.tools()] });
    try {
      const directory = search.directory() ?? "";
      expect(directory).toContain("- local_weather (weather): Current weather for a city.");
      expect(directory).toContain(
        "Policy-approved MCP and client tools may also be found through tool_search",
      );
      for (const fragment of [
        "one_",
        "two_",
        "shared_lookup",
        "HOSTILE_LONG",
        "INJECTED_ROW",
        "<|im_start|>",
        "hostile_",
      ]) {
        expect(directory).not.toContain(fragment);
      }
      expect(directory.length).toBeLessThan(2_000);
    } finally {
      search.close();
    }
  });

  it("survives hostile metadata in search and describe, with the schema passed through untouched", async () => {
    const search = createToolSearch({ tools: source.tools() });
    try {
      const found = search.search("hostile injection instructions", { limit: 5 });
      expect(found.map((candidate) => candidate.id)).toContain("mcp:one:hostile_injection");
      const deep = (hostileTools() as Array<{ name: string; inputSchema: unknown }>)[2];
      const described = search.describe("mcp:one:hostile_deep_schema");
      expect(described.parameters).toEqual(deep?.inputSchema);
      const long = search.search("HOSTILE_LONG marker", { limit: 1 })[0];
      expect(long?.id).toBe("mcp:one:hostile_long_description");
      expect(JSON.stringify(long).length).toBeLessThan(25_000);
    } finally {
      search.close();
    }
  });
});
