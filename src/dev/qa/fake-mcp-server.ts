import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { FAKE_PLUGIN_TOOL_COUNT, fakePluginToolName, fakeToolDescription } from "./fake-plugin.js";

/**
 * The QA scenario's MCP lane: the same 36 fake tools as the fake plugin, served by a real MCP server over
 * stdio (run as `node dist/dev/qa/fake-mcp-server.js`). Each returns `FAKE_PLUGIN_OK <name> <input>`.
 */
const names = Array.from({ length: FAKE_PLUGIN_TOOL_COUNT }, (_, index) => fakePluginToolName(index + 1));
const server = new Server({ name: "toolsift-qa-fake", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: names.map((name, index) => ({
    name,
    description: fakeToolDescription(index + 1),
    inputSchema: {
      type: "object" as const,
      properties: { marker: { type: "string", description: "Any marker text to echo back." } },
      required: ["marker"],
      additionalProperties: false,
    },
  })),
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!names.includes(name))
    return { content: [{ type: "text", text: `Unknown tool ${name}` }], isError: true };
  return {
    content: [{ type: "text", text: `FAKE_PLUGIN_OK ${name} ${JSON.stringify(args ?? {})}` }],
    structuredContent: { status: "ok", tool: name, input: args ?? {} },
  };
});

await server.connect(new StdioServerTransport());
