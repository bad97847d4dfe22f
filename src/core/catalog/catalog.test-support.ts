import type { ToolDefinition, ToolOrigin, ToolResult } from "./types.js";

/** A minimal tool for tests: echoes its arguments as text and details. */
export function makeTool(name: string, extra: Partial<Omit<ToolDefinition, "name">> = {}): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    execute: async (args): Promise<ToolResult> => ({
      content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }],
      details: { status: "ok", tool: name, input: args },
    }),
    ...extra,
  };
}

/** Shorthand origins. */
export const origins = {
  plugin: (owner: string): ToolOrigin => ({ kind: "plugin", owner }),
  mcp: (owner: string): ToolOrigin => ({ kind: "mcp", owner }),
  client: (): ToolOrigin => ({ kind: "client", owner: "client" }),
};
