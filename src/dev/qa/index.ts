export { FAKE_PLUGIN_ID, FAKE_PLUGIN_TOOL_COUNT, writeFakePlugin } from "./fake-plugin.js";
export { formatScenarioReport } from "./format-report.js";
export { readLaneStream } from "./read-lane-stream.js";
export { runGatewayScenario } from "./run-gateway-scenario.js";
