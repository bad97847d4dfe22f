import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { toolDeclarationBytes } from "../providers/index.js";
import type { RunSurface, SurfaceCall } from "../run-surface/index.js";
import { inspectSurface } from "./inspect-surface.js";
import { providerToolsOf } from "./prepare-run.js";
import type { RunnerOptions } from "./runner-options.js";
import type {
  ControlAnswer,
  ToolDescribePreview,
  ToolSearchLook,
  ToolSearchPreview,
  ToolSearchState,
} from "./types.js";

/**
 * The bytes of declaring every admitted tool up front, per resolved agent and per list of its gathered tools
 * (the very list while its sources are unchanged, `gatheredTools`): a repeated look measures nothing again.
 * Held by one runner; entries go with the agent or the list.
 */
export type EveryToolBytes = WeakMap<ResolvedAgent, WeakMap<readonly ToolDefinition[], number>>;

/** The session key the looking surface is opened under (no session is read or written). */
const LOOK_SESSION_KEY = "tool-search-look";

/** The call id the controls are called with (nothing records it). */
const LOOK_CALL_ID = "tool-search-look";

/**
 * `tool_search` for `look.query` (or the batch `look.queries`), answered as a run of `agent` would answer it: the call goes through the
 * run surface's own `execute` (the same controls, settings, mode, policy, owner filters and shared caches,
 * so a repeated look reuses the search index), and the output is the text the model would read back. The
 * bytes compare it with declaring every admitted tool up front (a surface of the same tools with Tool
 * Search off), measured with the provider API's body mapping.
 */
export async function searchWithoutRun(
  options: RunnerOptions & { everyToolBytes: EveryToolBytes },
  agent: ResolvedAgent,
  look: ToolSearchLook,
): Promise<ToolSearchPreview> {
  const args: ToolSearchPreview["arguments"] =
    look.queries === undefined
      ? { query: look.query, ...(look.limit === undefined ? {} : { limit: look.limit }) }
      : {
          queries: look.queries.map(({ query, limit }) => ({
            query,
            ...(limit === undefined ? {} : { limit }),
          })),
        };
  const api = agent.model.settings?.api ?? "openai-responses";
  const { surface, tools } = await inspectSurface(options, agent, { sessionKey: LOOK_SESSION_KEY });
  let state: ToolSearchState;
  let answer: ControlAnswer | undefined;
  let declared: number;
  try {
    state = stateOf(surface);
    declared = toolDeclarationBytes(api, providerToolsOf(surface));
    if (state.enabled) answer = answerOf(await surface.execute("tool_search", args, callContext()));
  } finally {
    surface.close();
  }
  const known = options.everyToolBytes.get(agent)?.get(tools);
  const everyTool = known ?? (await everyToolBytes(options, agent, api));
  if (known === undefined) {
    const byTools = options.everyToolBytes.get(agent) ?? new WeakMap();
    byTools.set(tools, everyTool);
    options.everyToolBytes.set(agent, byTools);
  }
  const result = answer === undefined ? 0 : Buffer.byteLength(answer.output, "utf8");
  return {
    agentId: agent.id,
    toolSearch: state,
    arguments: args,
    ...(answer === undefined ? {} : { answer }),
    bytes: { result, declared, everyTool, saved: everyTool - declared - result },
  };
}

/** `tool_describe` for `id`, answered as a run of `agent` would answer it (see searchWithoutRun). */
export async function describeWithoutRun(
  options: RunnerOptions,
  agent: ResolvedAgent,
  id: string,
): Promise<ToolDescribePreview> {
  const { surface } = await inspectSurface(options, agent, { sessionKey: LOOK_SESSION_KEY });
  try {
    const state = stateOf(surface);
    const answer = state.enabled
      ? answerOf(await surface.execute("tool_describe", { id }, callContext()))
      : undefined;
    return { agentId: agent.id, toolSearch: state, arguments: { id }, ...(answer ? { answer } : {}) };
  } finally {
    surface.close();
  }
}

/**
 * Tool Search as a run of the agent has it: off when Code Mode replaces the controls (`inspectSurface` opens
 * the Code Mode surface by `codeModeFor`, the rule `prepareRun` follows).
 */
function stateOf(surface: RunSurface): ToolSearchState {
  return { enabled: surface.toolSearchEnabled, mode: surface.mode };
}

/** The `tools` bytes of the agent's requests with Tool Search (and Code Mode) off: every admitted tool declared up front. */
async function everyToolBytes(
  options: RunnerOptions,
  agent: ResolvedAgent,
  api: Parameters<typeof toolDeclarationBytes>[0],
): Promise<number> {
  const toolSearch = { ...options.environment.toolSearch, explicit: true, enabled: false };
  const look = { sessionKey: LOOK_SESSION_KEY, toolSearch, codeMode: false as const };
  const { surface } = await inspectSurface(options, agent, look);
  try {
    return toolDeclarationBytes(api, providerToolsOf(surface));
  } finally {
    surface.close();
  }
}

function callContext() {
  return { toolCallId: LOOK_CALL_ID, signal: AbortSignal.timeout(LOOK_TIMEOUT_MS) };
}

/** A look's call is cut off after this long (a control answers from memory; this only bounds a stuck one). */
const LOOK_TIMEOUT_MS = 30_000;

function answerOf(call: SurfaceCall): ControlAnswer {
  const code = errorCodeOf(call.result.details);
  return {
    output: call.text,
    isError: call.result.isError === true,
    ...(call.result.isError === true && code !== undefined ? { errorCode: code } : {}),
  };
}

/** The `details.error.code` a failed control carries (`toErrorResult`). */
function errorCodeOf(details: unknown): string | undefined {
  if (typeof details !== "object" || details === null || !("error" in details)) return undefined;
  const error = (details as { error?: unknown }).error;
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
