/** One lane of the gateway QA scenario. */
export interface QaLane {
  name: "direct" | "tools" | "directory" | "default" | "batch";
  /** The value of tools.toolSearch for the lane's gateway; undefined leaves it unset. */
  toolSearch: unknown;
  /** The tools the mock model is asked to reach. */
  targets: string[];
}

/** The five lanes of `tool-search-gateway-e2e`, in the order they run. */
export const QA_LANES: readonly QaLane[] = [
  { name: "direct", toolSearch: false, targets: ["fake_plugin_tool_17"] },
  { name: "tools", toolSearch: { enabled: true, mode: "tools" }, targets: ["fake_plugin_tool_17"] },
  { name: "directory", toolSearch: { mode: "directory" }, targets: ["fake_plugin_tool_17"] },
  { name: "default", toolSearch: undefined, targets: ["fake_plugin_tool_17"] },
  {
    name: "batch",
    toolSearch: { enabled: true, mode: "tools" },
    targets: ["fake_plugin_tool_17", "fake_plugin_tool_29"],
  },
];

/** The user message a lane sends. */
export function laneInput(lane: QaLane): string {
  const [first, second] = lane.targets;
  return `tool search qa check target=${first}${second ? ` and=${second}` : ""}`;
}
