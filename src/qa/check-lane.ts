import type { RecordedRequest } from "../mock-openai/index.js";
import { checkStream, type StreamObservation } from "./check-stream.js";
import { FAKE_PLUGIN_ID } from "./fake-plugin.js";
import type { QaLane } from "./lanes.js";
import { FAKE_MCP_SERVER_NAME } from "./start-gateway-process.js";
import type { LaneReport } from "./types.js";

/** What one lane produced, as read from the outside: HTTP answer, provider request log, session log. */
export interface LaneObservation {
  lane: QaLane;
  status: number;
  answer: string;
  requests: RecordedRequest[];
  events: unknown[];
  effective: unknown;
  wallMs: number;
  /** Streaming lanes: the stream, the same request answered whole, and the stream's session log. */
  stream?: StreamObservation;
}

type LoggedEvent = {
  type?: string;
  name?: string;
  output?: string;
  items?: Array<{ type?: string; name?: string }>;
};

const CONTROL_NAMES = ["tool_search", "tool_describe", "tool_call"];

/** Measures a lane and checks the spec's assertions for it; failures are listed, never thrown. */
export function checkLane(observation: LaneObservation): LaneReport {
  const { lane } = observation;
  const failures: string[] = [];
  const fail = (message: string) => failures.push(message);
  const bodies = observation.requests.map((request) => parseBody(request.body));
  const last = bodies.at(-1);
  const lastRequest = observation.requests.at(-1);
  const declared = (body: RequestBody | undefined) =>
    (body?.tools ?? []).map((tool) => tool.name ?? tool.function?.name ?? "");
  const events = observation.events as LoggedEvent[];
  const results = events.filter((event) => event.type === "tool-result");
  const countOf = (name: string) => results.filter((event) => event.name === name).length;
  const modelCalls = events
    .filter((event) => event.type === "assistant-output")
    .flatMap((event) =>
      (event.items ?? []).filter((item) => item.type === "function_call").map((item) => item.name),
    );

  if (observation.status !== 200)
    fail(`the gateway answered HTTP ${observation.status}: ${observation.answer}`);
  if (bodies.length === 0) fail("the mock provider received no request");
  for (const target of lane.targets) {
    if (!observation.answer.includes(`FAKE_PLUGIN_OK ${target}`))
      fail(`the answer lacks FAKE_PLUGIN_OK ${target}`);
    const inLog = events.some(
      (event) => (event.type === "target-activity" || event.type === "tool-result") && event.name === target,
    );
    if (!inLog) fail(`the session log does not show ${target} executing`);
    const owner = lane.source === "mcp" ? FAKE_MCP_SERVER_NAME : FAKE_PLUGIN_ID;
    const source = lane.source === "mcp" ? "mcp" : "native";
    if (!attributed(observation.effective, target, owner, source)) {
      fail(`/v1/tools/effective does not attribute ${target} to ${source} owner ${owner}`);
    }
  }

  if (lane.name === "direct") {
    const names = declared(last);
    const fakeCount = names.filter((name) => name.startsWith("fake_plugin_tool_")).length;
    if (fakeCount !== 36) fail(`the direct lane declared ${fakeCount} fake plugin schemas, expected 36`);
    if (CONTROL_NAMES.some((name) => names.includes(name) || countOf(name) > 0))
      fail("the direct lane used a control");
  } else {
    for (const [index, body] of bodies.entries()) {
      const names = declared(body);
      if (!CONTROL_NAMES.every((name) => names.includes(name)))
        fail(`request ${index + 1} lacks the controls`);
      if (names.some((name) => name.startsWith("fake_plugin_tool_")))
        fail(`request ${index + 1} declared a deferred schema`);
      const prompt = body?.instructions ?? "";
      // MCP names never enter the prompt: the MCP lane's directory only says MCP tools can be searched.
      const listed =
        lane.source === "mcp"
          ? !prompt.includes("fake_plugin_tool_17")
          : prompt.includes("- fake_plugin_tool_17");
      if (!prompt.includes("### Deferred Tool Schemas") || !listed) {
        fail(
          `request ${index + 1}'s prompt has no directory, or lists fake_plugin_tool_17 where it must not`,
        );
      }
    }
    const directCalls = modelCalls.filter((name) => name?.startsWith("fake_plugin_tool_"));
    if (directCalls.length > 0 && lane.name !== "directory")
      fail(`the model called ${directCalls.join(", ")} as a provider tool`);
  }
  if (lane.name === "batch") checkBatch(results, lane.targets, fail);
  const streamCheck = observation.stream ? checkStream(observation.stream) : undefined;
  for (const failure of streamCheck?.failures ?? []) fail(failure);

  return {
    lane: lane.name,
    declaredTools: declared(last).length,
    requestBytes: lastRequest?.bytes ?? 0,
    systemPromptChars: (last?.instructions ?? "").length,
    searches: countOf("tool_search"),
    describes: countOf("tool_describe"),
    calls:
      countOf("tool_call") + results.filter((event) => event.name?.startsWith("fake_plugin_tool_")).length,
    wallMs: observation.wallMs,
    answer: observation.answer,
    ...(streamCheck?.figures ? { stream: streamCheck.figures } : {}),
    failures,
  };
}

type RequestBody = {
  instructions?: string;
  tools?: Array<{ name?: string; function?: { name?: string } }>;
};

function parseBody(body: string): RequestBody | undefined {
  try {
    return JSON.parse(body) as RequestBody;
  } catch {
    return undefined;
  }
}

function attributed(effective: unknown, target: string, owner: string, source: string): boolean {
  const tools = (effective as { tools?: Array<{ name?: string; owner?: string; source?: string }> })?.tools;
  return (
    Array.isArray(tools) &&
    tools.some((tool) => tool.name === target && tool.owner === owner && tool.source === source)
  );
}

function checkBatch(results: LoggedEvent[], targets: string[], fail: (message: string) => void): void {
  const searches = results.filter((event) => event.name === "tool_search");
  if (searches.length !== 1) {
    fail(`the batch lane made ${searches.length} tool_search calls, expected exactly one`);
    return;
  }
  const groups = parseJson(searches[0]?.output)?.results as
    | Array<{ query?: string; candidates?: Array<{ name?: string }> }>
    | undefined;
  if (!Array.isArray(groups) || groups.length !== targets.length) {
    fail(
      `the batch tool_search returned ${Array.isArray(groups) ? groups.length : "no"} groups, expected ${targets.length}`,
    );
    return;
  }
  for (const [index, target] of targets.entries()) {
    const candidates = groups[index]?.candidates ?? [];
    if (candidates.length !== 1 || candidates[0]?.name !== target) {
      fail(`batch group ${index + 1} is not exactly [${target}]`);
    }
  }
  const calls = results.filter((event) => event.name === "tool_call");
  if (calls.length < targets.length)
    fail(`the batch lane made ${calls.length} tool_call calls after the search`);
  for (const call of calls) {
    const status = (parseJson(call.output)?.result as { details?: { status?: unknown } } | undefined)?.details
      ?.status;
    if (status !== "ok") fail(`a batch tool_call returned details.status ${String(status)}, expected ok`);
  }
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text ?? "") as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
