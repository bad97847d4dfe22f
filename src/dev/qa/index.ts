export {
  FAKE_PLUGIN_ID,
  FAKE_PLUGIN_TOOL_COUNT,
  fakePluginToolName,
  writeFakePlugin,
} from "./fake-plugin.js";
export { formatScenarioReport } from "./format-report.js";
export { QA_LANES, type QaLane } from "./lanes.js";
export { type LaneStream, readLaneStream, type TimedFrame } from "./read-lane-stream.js";
export { type GatewayScenarioOptions, runGatewayScenario } from "./run-gateway-scenario.js";
export type { LaneReport, ScenarioReport, StreamFigures } from "./types.js";
