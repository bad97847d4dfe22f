import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ApprovalBroker } from "../../runtime/approvals/index.js";
import type { LoadedPlugins } from "../../runtime/plugins/index.js";
import type { PolicyLayers } from "../../runtime/policy/index.js";
import { MAX_LOGGED_OUTPUT_CHARS, openRunSurface } from "../../runtime/run-surface/index.js";
import type { SessionStore } from "../../runtime/sessions/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_LOGGED_NAME_CHARS, MAX_MCP_SESSION_LOG_BYTES, MCP_AGENT_ID } from "./limits.js";
import { createMcpSessionLog, type McpCallLog } from "./mcp-session-log.js";
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
  /** Past this size a connection's log keeps only call metadata (`mcp.serve.maxSessionLogBytes`). Default 16 MiB. */
  maxSessionLogBytes?: number;
  /** The client key that opened the connection: in its session header and on its approvals. Default: none. */
  keyId?: string;
  /** Secrets known up front (the config's): redacted wherever they appear in the session log. Default: none. */
  secrets?: readonly string[];
  log(line: string): void;
}

/** One MCP connection: its own catalog and executor (like one run), its listed tools, its session log. */
export interface ServeSession {
  readonly sessionKey: string;
  /** Intro plus the directory text (when Tool Search is on). */
  instructions(): string;
  /** The tools this connection lists: the controls plus the visible and direct-only tools (or every tool). */
  listTools(): Tool[];
  /**
   * Runs one `tools/call` through the executor pipeline and logs it as a run of its own (ending with a
   * `run-summary`); refused with an error result, before anything runs, when the log cannot be written.
   * Never throws.
   */
  callTool(
    name: string,
    args: unknown,
    context: { requestId: string | number; signal?: AbortSignal },
  ): Promise<CallToolResult>;
  /** Rebuilds the catalog from the current tools; true when the listed surface (names, schemas) changed. */
  refresh(): boolean;
  close(): void;
}

/**
 * Starts the state of one MCP connection over the run surface (like one run): with Tool Search on (the
 * default; read as for the embedded harness), the connection lists the three controls plus visible and
 * direct-only tools, and calls reach every other tool through `tool_call`. With `tools.toolSearch: false` it
 * lists every tool directly (MCP tools as `<server>__<tool>`), each call still through the executor pipeline.
 */
export async function createServeSession(options: ServeSessionOptions): Promise<ServeSession> {
  const { log } = options;
  const sessionLog = createMcpSessionLog({
    sessions: options.sessions,
    maxBytes: options.maxSessionLogBytes ?? MAX_MCP_SESSION_LOG_BYTES,
    log,
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  });
  // The log of each call in flight, by call id: target activity is written under its call's run id.
  const callLogs = new Map<string, McpCallLog>();
  const surface = await openRunSurface({
    agentId: MCP_AGENT_ID,
    sessionKey: sessionLog.sessionKey,
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    tools: options.tools(),
    ...(options.policy ? { policy: options.policy } : {}),
    settings: options.toolSearch,
    ...(options.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: options.contextWindowTokens }),
    ...(options.plugins ? { plugins: options.plugins } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
    onTargetActivity: (activity) =>
      (callLogs.get(activity.parentCallId) ?? sessionLog.startCall()).targetActivity(activity),
    unknownToolText,
    log,
  });
  const listedTools = () => {
    const listed = new Map<string, Tool>();
    for (const tool of surface.modelTools())
      if (!listed.has(tool.name)) listed.set(tool.name, toMcpTool(tool));
    return listed;
  };
  let listed = listedTools();
  let signature = surfaceSignature(listed);

  return {
    sessionKey: sessionLog.sessionKey,
    instructions: () => serveInstructions({ directory: surface.directory(), servers: options.serverNames() }),
    listTools: () => [...listed.values()],
    async callTool(name, args, context) {
      // The gateway's storage rule: a call that cannot be logged does not run.
      const refusal = await sessionLog.admit();
      if (refusal !== undefined) return { content: [{ type: "text", text: refusal }], isError: true };
      const callId = `mcp-${cutText(String(context.requestId), MAX_LOGGED_NAME_CHARS)}`;
      const callLog = sessionLog.startCall();
      callLogs.set(callId, callLog);
      // As a gateway run does: the values of secret-named arguments are redacted where they reappear.
      callLog.learnSecrets(args);
      const started = Date.now();
      try {
        const call = await surface.execute(name, args ?? {}, {
          toolCallId: callId,
          ...(context.signal ? { signal: context.signal } : {}),
        });
        callLog.learnSecrets(call.text);
        const answer = toCallToolResult(call.result);
        callLog.toolResult({
          callId,
          name: cutText(name, MAX_LOGGED_NAME_CHARS),
          ...call.attribution,
          isError: answer.isError === true,
          output: cutText(call.text, MAX_LOGGED_OUTPUT_CHARS),
        });
        const cancelled = context.signal?.aborted === true;
        // On the disk (the store syncs a summary) before the client gets the answer, as a gateway run's.
        await callLog.summary({
          status: cancelled ? "incomplete" : "completed",
          durationMs: Date.now() - started,
          telemetry: surface.telemetry(),
          ...(cancelled ? { error: "CANCELLED: the client cancelled the call." } : {}),
        });
        return answer;
      } finally {
        callLogs.delete(callId);
      }
    },
    refresh() {
      surface.replaceTools(options.tools());
      listed = listedTools();
      const next = surfaceSignature(listed);
      const changed = next !== signature;
      signature = next;
      return changed;
    },
    close: () => surface.close(),
  };
}

function unknownToolText(name: string, toolSearch: boolean): string {
  const shown = JSON.stringify(cutText(name, 200));
  return toolSearch
    ? `Unknown tool ${shown}. Find tools with tool_search, then run them with tool_call { id, args }.`
    : `Unknown tool ${shown}. List the tools again (tools/list) to see what this server offers.`;
}

/** What a client sees of the tool list: a change here is what `notifications/tools/list_changed` announces. */
function surfaceSignature(listed: ReadonlyMap<string, Tool>): string {
  try {
    return JSON.stringify([...listed.values()]);
  } catch {
    return `unserialisable:${Date.now()}:${Math.random()}`;
  }
}
