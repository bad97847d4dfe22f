import {
  CONTROL_NAMES,
  type ToolCallContext,
  type ToolDefinition,
  type ToolResult,
  toCatalogEntry,
} from "../../core/catalog/index.js";
import { type Telemetry, toErrorResult } from "../../core/controls/index.js";
import type { ToolSearchMode } from "../../core/directory/index.js";
import { createHostToolSearch, modelToolEntry, type ToolSearch } from "../../core/tool-search/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import type { ApprovalBroker } from "../approvals/index.js";
import { prepareCodeModeSurface } from "../code-mode/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { type LoadedPlugins, runBeforePromptHooks } from "../plugins/index.js";
import { applyToolPolicy, type PolicyLayers } from "../policy/index.js";
import { resultText } from "./result-text.js";
import { type RoutedTools, routeThroughExecutor } from "./route-through-executor.js";
import { type CallAttribution, emitRunEvent, type RunEventSink } from "./run-events.js";
import { createRunHooks } from "./run-hooks.js";
import { libraryRuntimeCaches, type RuntimeCaches } from "./runtime-caches.js";
import { searchSummary } from "./search-summary.js";
import type { TargetActivity } from "./target-activity.js";
import { toolSearchOptionsFor } from "./tool-search-options.js";
import { traceRunSurface } from "./trace-run-surface.js";

/** What a front door knows when it opens the surface of one run (a gateway run, one `mcp serve` connection). */
export interface RunSurfaceOptions {
  agentId: string;
  sessionKey: string;
  /** The client key the run belongs to, recorded on its pending approvals. Default: none. */
  keyId?: string;
  /** Every tool of the run's sources (core, plugin, MCP), before policy. */
  tools: readonly ToolDefinition[];
  /**
   * The version of `tools` their sources state: equal versions mean the very same definitions, so what was
   * derived from them (policy verdicts, the catalog) is found by it. Default: none (found by identity).
   */
  toolsVersion?: string;
  /** Tools the client declared with the request (a call to one is handed back). Default none. */
  clientTools?: readonly ToolDefinition[];
  /** The tool policy: a denied tool never reaches the catalog, and every call is judged again. Default: all admitted. */
  policy?: PolicyLayers;
  /** `tools.toolSearch`: the settings loadConfig read, or a raw value. */
  settings: unknown;
  /** The run's agent (harness, model, context window). Default: the embedded harness, no agent. */
  agent?: ResolvedAgent;
  /** Scales the directory budget when there is no agent. Default: 18,000 characters. */
  contextWindowTokens?: number;
  /** Code Mode for this run (replaces the controls; falls back to `tools` mode if it cannot start). Default off. */
  codeMode?: { timeoutMs?: number };
  /** Their `before_tool_call` hooks run for every call; their `before_prompt` hooks see `promptText`. */
  plugins?: LoadedPlugins;
  /** The user's text of this turn: when set, `before_prompt` hooks may narrow the catalog. Default: not run. */
  promptText?: string;
  /** Decides calls that need approval. Default: every call approved. */
  approvals?: Pick<ApprovalBroker, "requestApproval">;
  /** Each finished call behind `tool_call`, as display-only evidence. Default: dropped. */
  onTargetActivity?(activity: TargetActivity): void;
  /** Tool calls started and finished, and searches, as run events. Default: none emitted. */
  onEvent?: RunEventSink;
  /** The text of the error result for a name no declared or hidden tool has. */
  unknownToolText(name: string, toolSearchEnabled: boolean): string;
  log?(line: string): void;
  /** What runs share across runs (catalogs, indexes, directories, validators, policy verdicts). Default: the library's own. */
  caches?: RuntimeCaches;
}

/** One call through the surface: the result, its text for the model and logs, and the tool it reached. */
export interface SurfaceCall {
  result: ToolResult;
  /** The text the model gets back (`resultText`). */
  text: string;
  attribution: CallAttribution;
}

/** The surface of one run, the same for every front door. */
export interface RunSurface {
  readonly toolSearchEnabled: boolean;
  readonly mode: ToolSearchMode;
  /** The tools to declare, in order: every call of each one passes the executor pipeline. */
  modelTools(): readonly ToolDefinition[];
  /** The directory text for the instructions, or undefined when Tool Search is off. */
  directory(): string | undefined;
  /** The catalog tool behind a declared or exact hidden name (nothing for controls and unknown names). */
  describeCall(name: string): CallAttribution;
  /** Runs one call by name through the pipeline, emitting its events; never throws. */
  execute(
    name: string,
    args: unknown,
    context: ToolCallContext & { toolCallId: string },
  ): Promise<SurfaceCall>;
  telemetry(): Telemetry;
  /** Builds the search index now (shared with later runs over the same catalog), so no call waits for it. */
  warmSearch(): void;
  /** Rebuilds from a new tool set (an upstream's `list_changed`); policy and client tools apply as before. */
  replaceTools(tools: readonly ToolDefinition[]): void;
  /** Later calls fail closed; Code Mode's children stop. */
  close(): void;
}

type Declared = { tools: ToolDefinition[]; byName: Map<string, ToolDefinition>; routed?: RoutedTools };

/**
 * Opens the surface of one run: applies the policy to its tools (and the client's), opens Tool Search (or
 * Code Mode over it) with the run's settings and the shared hooks (policy re-check, plugin hooks, approvals,
 * target activity), lets `before_prompt` hooks narrow it, and declares the model tools. A tool that Tool
 * Search returns as it is (Tool Search off, or a direct-only tool beside Code Mode) is routed through an
 * executor of its own, MCP tools declared as `<server>__<tool>`: no declared tool bypasses the pipeline.
 */
export async function openRunSurface(options: RunSurfaceOptions): Promise<RunSurface> {
  const { policy, log } = options;
  const caches = options.caches ?? libraryRuntimeCaches();
  // The run's sources are often the very definitions of the last run: their verdicts (and the catalog built
  // from the admitted list) are shared. The client's tools are new with every request.
  const admit = (given: readonly ToolDefinition[]) =>
    policy ? caches.policies.apply(given, policy).admitted : given;
  const admitted = policy
    ? caches.policies.apply(options.tools, policy, options.toolsVersion)
    : { admitted: options.tools, version: options.toolsVersion };
  const tools = admitted.admitted;
  const clientTools = policy
    ? applyToolPolicy(options.clientTools ?? [], policy).admitted
    : [...(options.clientTools ?? [])];
  const hooks = createRunHooks({
    agentId: options.agentId,
    sessionKey: options.sessionKey,
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(policy ? { policy } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
    // Calls made inside `tool_call` run on the control surface with the model's call id.
    isTargetCall: (activity) => activity.surface === "control" && activity.toolCallId !== undefined,
    onTargetActivity: (activity) => options.onTargetActivity?.(activity),
    ...(log ? { log } : {}),
  });
  const searchOptions = toolSearchOptionsFor({
    tools,
    settings: options.settings,
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: options.contextWindowTokens }),
    hooks,
    caches,
    ...(admitted.version === undefined ? {} : { toolsVersion: admitted.version }),
  });
  const codeMode = options.codeMode
    ? await prepareCodeModeSurface({
        toolSearch: searchOptions,
        codeMode: {
          ...(options.codeMode.timeoutMs === undefined ? {} : { timeoutMs: options.codeMode.timeoutMs }),
          ...(options.agent?.contextWindowTokens === undefined
            ? {}
            : { contextWindowTokens: options.agent.contextWindowTokens }),
        },
        ...(log ? { log } : {}),
      })
    : undefined;
  const search: ToolSearch = codeMode?.toolSearch ?? createHostToolSearch(searchOptions);
  try {
    search.addClientTools(clientTools);
    await narrowBeforePrompt(search, options, tools, clientTools);
  } catch (error) {
    search.close();
    void codeMode?.close();
    throw error;
  }

  const declare = (): Declared => {
    const own = search.modelTools();
    const offered = codeMode?.modelTools() ?? own;
    // What a disabled Tool Search returns is each tool as it is, never wrapped: those calls need routing.
    const bare = search.enabled ? new Set<ToolDefinition>() : new Set(own);
    const routed = bare.size > 0 ? routeThroughExecutor([...bare], hooks) : undefined;
    const declared = offered.flatMap((tool) => {
      if (!bare.has(tool)) return [tool];
      const routedTool = routed?.routed.get(tool);
      return routedTool ? [routedTool] : [];
    });
    const byName = new Map<string, ToolDefinition>();
    for (const tool of declared) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    return { tools: declared, byName, ...(routed ? { routed } : {}) };
  };
  let declared = declare();

  const attributionOf = (tool: ToolDefinition): CallAttribution => {
    const entry = declared.routed?.entries.get(tool.name) ?? modelToolEntry(tool) ?? toCatalogEntry(tool);
    return entry && !CONTROL_NAMES.has(entry.name) ? { toolId: entry.id, source: entry.source } : {};
  };
  const lookUp = (name: string): ToolDefinition | undefined =>
    declared.byName.get(name) ?? search.resolveDirectoryName(name);

  return traceRunSurface({
    toolSearchEnabled: search.enabled,
    mode: search.mode,
    modelTools: () => declared.tools,
    directory: () => search.directory(),
    describeCall(name) {
      const tool = lookUp(name);
      return tool ? attributionOf(tool) : {};
    },
    async execute(name, args, context) {
      // Events are built only for a listener: most runs have none, and this is every call's path.
      const sink = options.onEvent;
      let tool: ToolDefinition | undefined;
      let result: ToolResult;
      let attribution: CallAttribution = {};
      try {
        tool = lookUp(name);
        if (tool) {
          attribution = attributionOf(tool);
          if (sink)
            emitRunEvent(sink, {
              type: "tool-call-start",
              callId: context.toolCallId,
              name,
              arguments: args,
              ...attribution,
            });
          result = await tool.execute(args, context);
        } else {
          const text = options.unknownToolText(name, search.enabled);
          result = toErrorResult(new ToolsiftError("UNKNOWN_TOOL", text));
        }
      } catch (error) {
        result = toErrorResult(error);
      }
      const text = resultText(result);
      if (!sink) return { result, text, attribution };
      emitRunEvent(sink, {
        type: "tool-call-finish",
        callId: context.toolCallId,
        name,
        isError: result.isError === true,
        output: text,
        ...attribution,
      });
      if (name === "tool_search" && search.enabled) {
        const summary = searchSummary(args, result);
        if (summary) emitRunEvent(sink, { type: "search-finish", callId: context.toolCallId, ...summary });
      }
      return { result, text, attribution };
    },
    telemetry: () => search.telemetry(),
    warmSearch() {
      if (search.enabled) search.search("warm up the search index", { limit: 1 });
    },
    replaceTools(next) {
      search.replaceTools(admit(next));
      declared.routed?.close();
      declared = declare();
    },
    close() {
      declared.routed?.close();
      search.close();
      void codeMode?.close();
    },
  });
}

/** Lets the plugins' `before_prompt` hooks narrow the catalog for this turn (never widen it). */
async function narrowBeforePrompt(
  search: ToolSearch,
  options: RunSurfaceOptions,
  tools: readonly ToolDefinition[],
  clientTools: readonly ToolDefinition[],
): Promise<void> {
  const hooks = options.plugins?.hooks.beforePrompt ?? [];
  if (options.promptText === undefined || hooks.length === 0) return;
  const allow = await runBeforePromptHooks(
    hooks,
    {
      agentId: options.agentId,
      sessionKey: options.sessionKey,
      input: options.promptText,
      tools: [...tools, ...clientTools].flatMap((tool) => {
        const entry = toCatalogEntry(tool);
        return entry ? [{ id: entry.id, name: entry.name }] : [];
      }),
    },
    {
      onHookError: ({ pluginId, message }) =>
        options.log?.(`plugin ${pluginId} before_prompt failed: ${message}`),
    },
  );
  if (allow) search.restrict(allow);
}
