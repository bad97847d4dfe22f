import type { ToolDefinition, ToolOrigin } from "../../core/catalog/index.js";

/** A tool for policy tests; `origin` defaults to core. */
export function policyTool(name: string, origin?: ToolOrigin): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    ...(origin ? { origin } : {}),
    execute: async (args) => ({ content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }] }),
  };
}

const plugin = (owner: string): ToolOrigin => ({ kind: "plugin", owner });
const mcp = (owner: string): ToolOrigin => ({ kind: "mcp", owner });
const client: ToolOrigin = { kind: "client", owner: "client" };

/** Every kind of tool a policy sees: core primitives and a non-primitive core tool, plugin, MCP and client tools. */
export function policyFixture(): ToolDefinition[] {
  return [
    policyTool("read"),
    policyTool("write"),
    policyTool("edit"),
    policyTool("exec"),
    policyTool("process"),
    policyTool("apply_patch"),
    policyTool("web_fetch", { kind: "core", owner: "core" }),
    policyTool("get_forecast", plugin("weather")),
    policyTool("weather_alerts", plugin("weather")),
    policyTool("weather.v2+beta", plugin("weather")),
    policyTool("notes_add", plugin("notes")),
    policyTool("create_event", mcp("calendar")),
    policyTool("read", mcp("files")),
    policyTool("pick_file", client),
  ];
}

/** Every fixture id, for readable expectations. */
export const ALL_FIXTURE_IDS = [
  "native:core:read",
  "native:core:write",
  "native:core:edit",
  "native:core:exec",
  "native:core:process",
  "native:core:apply_patch",
  "native:core:web_fetch",
  "native:weather:get_forecast",
  "native:weather:weather_alerts",
  "native:weather:weather.v2+beta",
  "native:notes:notes_add",
  "mcp:calendar:create_event",
  "mcp:files:read",
  "client:client:pick_file",
] as const;
