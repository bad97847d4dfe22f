import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockOpenAI, startMockOpenAI } from "../mock-openai/index.js";
import { checkLane, type LaneObservation } from "./check-lane.js";
import { FAKE_PLUGIN_ID, writeFakePlugin } from "./fake-plugin.js";
import { baselineLaneName, isDirectLane, QA_LANES, type QaLane } from "./lanes.js";
import { sendLaneRequest } from "./send-lane-request.js";
import { FAKE_MCP_SERVER_ENTRY, FAKE_MCP_SERVER_NAME, startGatewayProcess } from "./start-gateway-process.js";
import type { LaneReport, ScenarioReport } from "./types.js";

/**
 * The streaming lanes' mock piece delay (ms before each streamed word or argument piece, see mock-openai's
 * `pieceDelayMs`): the answer's four words then span 120 ms, so its first delta reaches the client well
 * before the run ends even on a busy machine. The other lanes use an unpaced mock.
 */
const QA_STREAM_PIECE_DELAY_MS = 40;

/** Options of the gateway QA scenario. */
export interface GatewayScenarioOptions {
  /** Told about each lane as it finishes (progress). */
  onLane?: (report: LaneReport) => void;
  /** Keep the temporary directory (plugin, configs, state) for inspection. Default false. */
  keepFiles?: boolean;
}

/**
 * `tool-search-gateway-e2e`: a real plugin on disk, the mock provider over HTTP, one real gateway process
 * per lane, real session files. Measures each lane and checks the spec's assertions.
 */
export async function runGatewayScenario(options: GatewayScenarioOptions = {}): Promise<ScenarioReport> {
  const startedAt = new Date().toISOString();
  const root = await mkdtemp(join(tmpdir(), "toolsift-qa-"));
  const mock = await startMockOpenAI({ port: 0 });
  // Streaming lanes get a mock that writes like a model, one piece at a time, so their deltas are spread out.
  const pacedMock = await startMockOpenAI({ port: 0, pieceDelayMs: QA_STREAM_PIECE_DELAY_MS }).catch(
    async (error: unknown) => {
      await mock.close();
      throw error;
    },
  );
  const lanes: LaneReport[] = [];
  try {
    const pluginDir = await writeFakePlugin(join(root, "plugins", FAKE_PLUGIN_ID));
    for (const lane of QA_LANES) {
      const report = await runLane(lane, { root, pluginDir, mock: lane.stream === true ? pacedMock : mock });
      lanes.push(report);
      options.onLane?.(report);
    }
  } finally {
    await mock.close();
    await pacedMock.close();
    if (!options.keepFiles) await rm(root, { recursive: true, force: true });
  }
  const comparisons = compareLanes(lanes);
  return {
    scenario: "tool-search-gateway-e2e",
    providerMode: "mock-openai",
    startedAt,
    lanes,
    comparisons,
    passed: comparisons.length === 0 && lanes.every((lane) => lane.failures.length === 0),
    ...(options.keepFiles ? { files: root } : {}),
  };
}

async function runLane(
  lane: QaLane,
  context: { root: string; pluginDir: string; mock: MockOpenAI },
): Promise<LaneReport> {
  const laneDir = join(context.root, "lanes", lane.name);
  const stateDir = join(laneDir, "state");
  await mkdir(stateDir, { recursive: true });
  const config: Record<string, unknown> = {
    models: {
      providers: {
        mock: {
          api: lane.providerApi ?? "openai-responses",
          baseUrl: context.mock.baseUrl,
          apiKey: "mock-key",
        },
      },
    },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
  };
  if (lane.source === "mcp") {
    config.mcp = {
      servers: { [FAKE_MCP_SERVER_NAME]: { command: process.execPath, args: [FAKE_MCP_SERVER_ENTRY] } },
    };
  } else {
    config.plugins = { load: { paths: [context.pluginDir] } };
  }
  if (lane.toolSearch !== undefined) config.tools = { toolSearch: lane.toolSearch };
  const configPath = join(laneDir, "toolsift.json");
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);

  const started = Date.now();
  const gateway = await startGatewayProcess({
    configPath,
    env: {
      ...process.env,
      TOOLSIFT_HOME: laneDir,
      TOOLSIFT_STATE_DIR: stateDir,
      TOOLSIFT_CONFIG: configPath,
    },
  });
  const sessionKey = `qa-${lane.name}`;
  const stream = lane.stream === true;
  try {
    const cursor = context.mock.requests().at(-1)?.cursor ?? -1;
    const answer = await sendLaneRequest({ url: gateway.url, lane, sessionKey, stream });
    const wallMs = Date.now() - started;
    const lastCursor = context.mock.requests().at(-1)?.cursor ?? -1;
    const events = await sessionEvents(gateway.url, sessionKey);
    const effective = (await (await fetch(`${gateway.url}/v1/tools/effective?agent=main`)).json()) as unknown;
    const observation: LaneObservation = {
      lane,
      status: answer.status,
      answer: answer.answer,
      requests: context.mock
        .requests()
        .filter((request) => request.cursor > cursor && request.cursor <= lastCursor),
      events,
      effective,
      wallMs,
    };
    const api = lane.api ?? "responses";
    // No lane streams /v1/messages: its stream is checked by the gateway's own tests.
    if (stream && api !== "messages") {
      // The same request answered whole, in a session of its own: the stream's final object must equal it.
      const whole = await sendLaneRequest({
        url: gateway.url,
        lane,
        sessionKey: `${sessionKey}-whole`,
        stream: false,
      });
      observation.stream = { api, streamed: answer, whole, events };
    }
    return checkLane(observation);
  } finally {
    await gateway.stop();
  }
}

async function sessionEvents(url: string, sessionKey: string): Promise<unknown[]> {
  const session = (await (await fetch(`${url}/v1/sessions/${sessionKey}?agent=main`)).json()) as {
    events?: unknown[];
  };
  return Array.isArray(session.events) ? session.events : [];
}

/** Each search lane against the direct lane of its provider API (request bytes differ between APIs). */
function compareLanes(lanes: readonly LaneReport[]): string[] {
  const failures: string[] = [];
  for (const spec of QA_LANES) {
    const lane = lanes.find((report) => report.lane === spec.name);
    if (!lane || isDirectLane(spec)) continue;
    const baseline = baselineLaneName(spec);
    const direct = lanes.find((report) => report.lane === baseline);
    if (!direct) {
      failures.push(`${lane.lane}: the ${baseline} lane did not run`);
      continue;
    }
    if (!(lane.declaredTools < direct.declaredTools)) {
      failures.push(
        `${lane.lane}: declared ${lane.declaredTools} tools, not fewer than ${baseline} (${direct.declaredTools})`,
      );
    }
    if (!(lane.requestBytes < direct.requestBytes)) {
      failures.push(
        `${lane.lane}: sent ${lane.requestBytes} request bytes, not fewer than ${baseline} (${direct.requestBytes})`,
      );
    }
  }
  return failures;
}
