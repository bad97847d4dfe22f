// A real MCP server for telemetry.e2e.test.ts, run with `node --import tsx <this file>` over stdio: one tool,
// `lookup_weather`, whose answer quotes the `traceparent` it received in `params._meta` (or `none`), so the
// test can check the trace context that crossed the process boundary.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "meta-echo", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "lookup_weather",
      description: "Look up the weather forecast for a city.",
      inputSchema: {
        type: "object" as const,
        properties: {
          city: { type: "string", const: "Oslo" },
          password: { type: "string", description: "The weather service password, if it needs one." },
        },
        required: ["city"],
      },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const traceparent = request.params._meta?.traceparent;
  return {
    content: [
      { type: "text", text: `sunny; traceparent=${typeof traceparent === "string" ? traceparent : "none"}` },
    ],
  };
});

await server.connect(new StdioServerTransport());
