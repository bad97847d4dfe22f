import { cachedPrefixBytes, type RecordedRequest } from "../mock-openai/index.js";
import { checkStream, type StreamObservation } from "./check-stream.js";
import { FAKE_PLUGIN_ID } from "./fake-plugin.js";
import { isDirectLane, type QaLane } from "./lanes.js";
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
  usage?: { cacheReadInputTokens?: number; cacheCreationInputTokens?: number };
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

  if (isDirectLane(lane)) {
    const names = declared(last);
    const fakeCount = names.filter((name) => name.startsWith("fake_plugin_tool_")).length;
    if (fakeCount !== 36)
      fail(`the ${lane.name} lane declared ${fakeCount} fake plugin schemas, expected 36`);
    if (CONTROL_NAMES.some((name) => names.includes(name) || countOf(name) > 0))
      fail(`the ${lane.name} lane used a control`);
  } else {
    for (const [index, body] of bodies.entries()) {
      const names = declared(body);
      if (!CONTROL_NAMES.every((name) => names.includes(name)))
        fail(`request ${index + 1} lacks the controls`);
      if (names.some((name) => name.startsWith("fake_plugin_tool_")))
        fail(`request ${index + 1} declared a deferred schema`);
      const prompt = promptText(body);
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
  const cache =
    lane.providerApi === "anthropic-messages"
      ? checkPromptCache(observation.requests, bodies, events, fail)
      : undefined;
  const streamCheck = observation.stream ? checkStream(observation.stream) : undefined;
  for (const failure of streamCheck?.failures ?? []) fail(failure);

  return {
    lane: lane.name,
    declaredTools: declared(last).length,
    requestBytes: lastRequest?.bytes ?? 0,
    systemPromptChars: promptText(last).length,
    searches: countOf("tool_search"),
    describes: countOf("tool_describe"),
    calls:
      countOf("tool_call") + results.filter((event) => event.name?.startsWith("fake_plugin_tool_")).length,
    wallMs: observation.wallMs,
    answer: observation.answer,
    ...(cache ? { cache } : {}),
    ...(streamCheck?.figures ? { stream: streamCheck.figures } : {}),
    failures,
  };
}

type RequestBody = {
  instructions?: string;
  /** Anthropic Messages: the system prompt as text blocks. */
  system?: Array<{ text?: string; cache_control?: unknown }>;
  tools?: Array<{ name?: string; function?: { name?: string }; cache_control?: unknown }>;
};

/** The system prompt of a provider request: `instructions` (Responses) or the `system` blocks (Messages). */
function promptText(body: RequestBody | undefined): string {
  if (typeof body?.instructions === "string") return body.instructions;
  return Array.isArray(body?.system) ? body.system.map((block) => block.text ?? "").join("") : "";
}

/**
 * An Anthropic lane's prompt caching: every request went to `/v1/messages` with breakpoints on the system
 * block and the last tool, the prefix (system and tools) is the same in every request, and every request
 * after the first read it from the cache (the session log's usage). Returns the figures for the table.
 */
function checkPromptCache(
  requests: readonly RecordedRequest[],
  bodies: ReadonlyArray<RequestBody | undefined>,
  events: readonly LoggedEvent[],
  fail: (message: string) => void,
): { prefixBytes: number; readTokens: number } {
  if (requests.some((request) => request.path !== "/v1/messages"))
    fail("a request of the lane did not go to /v1/messages");
  const prefixOf = (body: RequestBody | undefined) => JSON.stringify([body?.system, body?.tools]);
  const first = bodies[0];
  if (first?.system?.at(-1)?.cache_control === undefined || first.tools?.at(-1)?.cache_control === undefined)
    fail("request 1 has no cache_control on its system block and its last tool");
  for (const [index, body] of bodies.entries())
    if (prefixOf(body) !== prefixOf(first)) fail(`request ${index + 1}'s prefix differs from request 1's`);
  const usage = events.filter((event) => event.type === "model-request").map((event) => event.usage);
  for (const [index, item] of usage.entries())
    if (index > 0 && !((item?.cacheReadInputTokens ?? 0) > 0))
      fail(`model request ${index + 1} read nothing from the prompt cache`);
  return {
    prefixBytes: cachedPrefixBytes(parseBody(requests.at(-1)?.body ?? "")),
    readTokens: usage.reduce((sum, item) => sum + (item?.cacheReadInputTokens ?? 0), 0),
  };
}

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
