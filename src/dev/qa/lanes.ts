/** One lane of the gateway QA scenario. */
export interface QaLane {
  name:
    | "direct"
    | "tools"
    | "directory"
    | "default"
    | "batch"
    | "mcp"
    | "responses-stream"
    | "chat-stream"
    | "anthropic-direct"
    | "anthropic-tools";
  /** The value of tools.toolSearch for the lane's gateway; undefined leaves it unset. */
  toolSearch: unknown;
  /** The tools the mock model is asked to reach. */
  targets: string[];
  /** Where the 36 fake tools come from: the fake plugin (native) or a real MCP server over stdio. */
  source: "plugin" | "mcp";
  /**
   * The gateway API the lane calls: `POST /v1/responses`, `POST /v1/chat/completions` or `POST /v1/messages`
   * (Anthropic; not streamed by any lane). Default "responses".
   */
  api?: "responses" | "chat" | "messages";
  /**
   * The API the lane's gateway speaks to the mock provider: `openai-responses` (`/v1/responses`) or
   * `anthropic-messages` (`/v1/messages`, with prompt-cache breakpoints). Default "openai-responses".
   */
  providerApi?: "openai-responses" | "anthropic-messages";
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
  {
    name: "anthropic-direct",
    toolSearch: false,
    targets: ["fake_plugin_tool_17"],
    source: "plugin",
    api: "messages",
    providerApi: "anthropic-messages",
  },
  {
    name: "anthropic-tools",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17"],
    source: "plugin",
    api: "messages",
    providerApi: "anthropic-messages",
  },
];

/** Whether a lane declares every tool directly (Tool Search off): the baseline its peers are compared with. */
export function isDirectLane(lane: QaLane): boolean {
  return lane.toolSearch === false;
}

/** The direct lane a lane is compared with: the one speaking the same provider API. */
export function baselineLaneName(lane: QaLane): QaLane["name"] {
  return lane.providerApi === "anthropic-messages" ? "anthropic-direct" : "direct";
}

/** The user message a lane sends. */
export function laneInput(lane: QaLane): string {
  const [first, second] = lane.targets;
  return `tool search qa check target=${first}${second ? ` and=${second}` : ""}`;
}
