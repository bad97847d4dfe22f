/** One lane of the gateway QA scenario. */
export interface QaLane {
  name: "direct" | "tools" | "directory" | "default" | "batch" | "mcp" | "responses-stream" | "chat-stream";
  /** The value of tools.toolSearch for the lane's gateway; undefined leaves it unset. */
  toolSearch: unknown;
  /** The tools the mock model is asked to reach. */
  targets: string[];
  /** Where the 36 fake tools come from: the fake plugin (native) or a real MCP server over stdio. */
  source: "plugin" | "mcp";
  /** The gateway API the lane calls: `POST /v1/responses` or `POST /v1/chat/completions`. Default "responses". */
  api?: "responses" | "chat";
  /**
   * Ask for the answer as a stream (`stream: true`), read it frame by frame, and check it against the same
   * request answered whole. Default false.
   */
  stream?: boolean;
}

/** The lanes of `tool-search-gateway-e2e`, in the order they run. */
export const QA_LANES: readonly QaLane[] = [
  { name: "direct", toolSearch: false, targets: ["fake_plugin_tool_17"], source: "plugin" },
  {
    name: "tools",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17"],
    source: "plugin",
  },
  {
    name: "directory",
    toolSearch: { mode: "directory" },
    targets: ["fake_plugin_tool_17"],
    source: "plugin",
  },
  { name: "default", toolSearch: undefined, targets: ["fake_plugin_tool_17"], source: "plugin" },
  {
    name: "batch",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17", "fake_plugin_tool_29"],
    source: "plugin",
  },
  {
    name: "mcp",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17"],
    source: "mcp",
  },
  {
    name: "responses-stream",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17"],
    source: "plugin",
    api: "responses",
    stream: true,
  },
  {
    name: "chat-stream",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17"],
    source: "plugin",
    api: "chat",
    stream: true,
  },
];

/** The user message a lane sends. */
export function laneInput(lane: QaLane): string {
  const [first, second] = lane.targets;
  return `tool search qa check target=${first}${second ? ` and=${second}` : ""}`;
}
