import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ApprovalBroker } from "../approvals/index.js";
import {
  asDirectTool,
  type CatalogEntry,
  CONTROL_NAMES,
  type EntrySource,
  isMcpToolDefinition,
  type ToolCallContext,
  type ToolDefinition,
  type ToolResult,
  toCatalogEntry,
} from "../catalog/index.js";
import { toErrorResult } from "../controls/index.js";
import { ToolsiftError } from "../errors/index.js";
import type { LoadedPlugins } from "../plugins/index.js";
import { applyToolPolicy, type PolicyLayers } from "../policy/index.js";
import {
  createRunHooks,
  MAX_LOGGED_OUTPUT_CHARS,
  resultText,
  toolSearchOptionsFor,
} from "../run-surface/index.js";
import type { SessionStore } from "../sessions/index.js";
import { cutText } from "../text/index.js";
import { createToolSearch, resolveToolSearchConfig, type ToolSearch } from "../tool-search/index.js";
import { MCP_AGENT_ID } from "./limits.js";
import { createMcpSessionLog } from "./mcp-session-log.js";
import { serveInstructions } from "./serve-instructions.js";
import { toCallToolResult, toMcpTool } from "./to-mcp-tool.js";

/** Inputs shared by every connection of `toolsift mcp serve`. */
export interface ServeSessionOptions {
  /** Every tool behind the server right now: plugin tools and upstream MCP tools. */
  tools(): readonly ToolDefinition[];
  /** Safe names of the upstream servers, named in the instructions. */
  serverNames(): readonly string[];
  /** The value of `tools.toolSearch` (unset means on, `tools` mode). */
  toolSearch?: unknown;
  /** Scales the directory budget. Default: 18,000 characters. */
  contextWindowTokens?: number;
  /** Their `before_tool_call` hooks run for every call. */
  plugins?: LoadedPlugins;
  /** Decides calls that need approval (`tools.approval`). Default: every call approved. */
  approvals?: Pick<ApprovalBroker, "requestApproval">;
  /** The tool policy: denied tools are never listed, searched or called. Default: everything admitted. */
  policy?: PolicyLayers;
  sessions: SessionStore;
  log(line: string): void;
}

/** One MCP connection: its own catalog and executor (like one run), its listed tools, its session log. */
export interface ServeSession {
  readonly sessionKey: string;
  /** Intro plus the directory text (when Tool Search is on). */
  instructions(): string;
  /** The tools this connection lists: the controls plus the visible and direct-only tools (or every tool). */
  listTools(): Tool[];
  /** Runs one `tools/call` through the executor pipeline and logs it; never throws. */
  callTool(
    name: string,
    args: unknown,
    context: { requestId: string | number; signal?: AbortSignal },
  ): Promise<CallToolResult>;
  /** Rebuilds the catalog from the current tools; true when the listed surface (names, schemas) changed. */
  refresh(): boolean;
  close(): void;
}

type Listed = {
  tool: Tool;
  run(args: unknown, context: ToolCallContext): Promise<ToolResult>;
  attribution: { toolId?: string; source?: EntrySource };
};

/**
 * Starts the state of one MCP connection. With Tool Search on (the default; read as for the embedded harness), the
 * connection lists the three controls plus visible and direct-only tools, and calls reach every other tool
 * through `tool_call`. With `tools.toolSearch: false` it lists every tool directly (MCP tools as
 * `<server>__<tool>`) and still runs each call through the executor pipeline by catalog id.
 */
export function createServeSession(options: ServeSessionOptions): ServeSession {
  const { log } = options;
  const sessionLog = createMcpSessionLog(options.sessions, log);
  const enabled = resolveToolSearchConfig(options.toolSearch, { harness: "embedded" }).enabled;
  const policy = options.policy;
  // Direct mode renames MCP tools; the policy keeps judging them by their own name and id.
  const judgedAs = new WeakMap<ToolDefinition, CatalogEntry>();
  const prepare = (tools: readonly ToolDefinition[]): ToolDefinition[] => {
    const admitted = policy ? applyToolPolicy(tools, policy).admitted : [...tools];
    if (enabled) return admitted;
    return admitted.map((tool) => {
      if (!isMcpToolDefinition(tool)) return tool;
      const direct = asDirectTool(tool);
      const entry = toCatalogEntry(tool);
      if (entry) judgedAs.set(direct, entry);
      return direct;
    });
  };
  const targetCalls = new Set<string>();
  const approvals = options.approvals;

  const search: ToolSearch = createToolSearch(
    toolSearchOptionsFor({
      tools: prepare(options.tools()),
      settings: options.toolSearch,
      ...(options.contextWindowTokens === undefined
        ? {}
        : { contextWindowTokens: options.contextWindowTokens }),
      hooks: createRunHooks({
        agentId: MCP_AGENT_ID,
        sessionKey: sessionLog.sessionKey,
        ...(policy ? { policy, judgedAs: (entry) => judgedAs.get(entry.tool) ?? entry } : {}),
        ...(options.plugins ? { plugins: options.plugins } : {}),
        ...(approvals ? { approvals } : {}),
        isTargetCall: (activity) => activity.toolCallId !== undefined && targetCalls.has(activity.toolCallId),
        onTargetActivity: (activity) => void sessionLog.targetActivity(activity),
        log,
      }),
    }),
  );

  const listedTools = (): Map<string, Listed> => {
    const listed = new Map<string, Listed>();
    for (const tool of search.modelTools()) {
      const entry = toCatalogEntry(tool);
      if (!entry || listed.has(entry.name)) continue;
      const attribution =
        CONTROL_NAMES.has(entry.name) && search.enabled ? {} : { toolId: entry.id, source: entry.source };
      const direct = search.enabled || tool.catalogMode === "direct-only";
      listed.set(entry.name, {
        tool: toMcpTool(tool),
        attribution,
        // With Tool Search on, model tools already pass through the executor; off, calls go by catalog id.
        run: direct
          ? (args, context) => tool.execute(args, context)
          : async (args, context) => (await search.call(entry.id, args, context)).result,
      });
    }
    return listed;
  };
  let listed = listedTools();
  let signature = surfaceSignature(listed);

  return {
    sessionKey: sessionLog.sessionKey,
    instructions: () => serveInstructions({ directory: search.directory(), servers: options.serverNames() }),
    listTools: () => [...listed.values()].map((entry) => entry.tool),
    async callTool(name, args, context) {
      const callId = `mcp-${String(context.requestId)}`;
      let result: ToolResult;
      let attribution: Listed["attribution"] = {};
      try {
        const target = listed.get(name) ?? hiddenTarget(search, name);
        if (!target) throw unknownTool(name, search.enabled);
        attribution = target.attribution;
        if (name === "tool_call" && search.enabled) targetCalls.add(callId);
        result = await target.run(args ?? {}, {
          toolCallId: callId,
          ...(context.signal ? { signal: context.signal } : {}),
        });
      } catch (error) {
        result = toErrorResult(error);
      } finally {
        targetCalls.delete(callId);
      }
      const answer = toCallToolResult(result);
      await sessionLog.toolResult({
        callId,
        name,
        ...attribution,
        isError: answer.isError === true,
        output: cutText(resultText(result), MAX_LOGGED_OUTPUT_CHARS),
      });
      return answer;
    },
    refresh() {
      search.replaceTools(prepare(options.tools()));
      listed = listedTools();
      const next = surfaceSignature(listed);
      const changed = next !== signature;
      signature = next;
      return changed;
    },
    close: () => search.close(),
  };
}

/** Directory mode: an exact, unique hidden name is run from the same catalog (never fuzzy). */
function hiddenTarget(search: ToolSearch, name: string): Listed | undefined {
  const tool = search.resolveDirectoryName(name);
  const entry = tool ? toCatalogEntry(tool) : undefined;
  if (!tool || !entry) return undefined;
  return {
    tool: toMcpTool(tool),
    attribution: { toolId: entry.id, source: entry.source },
    run: (args, context) => tool.execute(args, context),
  };
}

function unknownTool(name: string, toolSearch: boolean): ToolsiftError {
  const shown = JSON.stringify(cutText(name, 200));
  return new ToolsiftError(
    "UNKNOWN_TOOL",
    toolSearch
      ? `Unknown tool ${shown}. Find tools with tool_search, then run them with tool_call { id, args }.`
      : `Unknown tool ${shown}. List the tools again (tools/list) to see what this server offers.`,
  );
}

/** What a client sees of the tool list: a change here is what `notifications/tools/list_changed` announces. */
function surfaceSignature(listed: ReadonlyMap<string, Listed>): string {
  try {
    return JSON.stringify([...listed.values()].map((entry) => entry.tool));
  } catch {
    return `unserialisable:${Date.now()}:${Math.random()}`;
  }
}
