import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { RunEnvironment, RunProfile, RunSurfaceEnvironment } from "../../runtime/environment/index.js";
import { MAX_LOGGED_OUTPUT_CHARS, openRunSurface } from "../../runtime/run-surface/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_LOGGED_NAME_CHARS, MAX_MCP_SESSION_LOG_BYTES } from "./limits.js";
import { createMcpSessionLog, type McpCallLog } from "./mcp-session-log.js";
import { serveInstructions } from "./serve-instructions.js";
import { toCallToolResult, toMcpTool } from "./to-mcp-tool.js";

/** The parts of the run environment `mcp serve` reads: the run surface's, and the session store. */
export type McpServeEnvironment = RunSurfaceEnvironment & Pick<RunEnvironment, "sessions">;

/** What every connection of `toolsift mcp serve` shares. */
export interface McpServeShared {
  /**
   * Built once per process (createRunEnvironment): `tools.toolSearch` as read, the plugins (their tools are
   * served next to the upstream ones, their `before_tool_call` hooks run for every call), the approval
   * broker, the session store and the log.
   */
  environment: McpServeEnvironment;
  /** Who the connections run as (mcpServeProfile): agent `mcp`, its policy and its context window. */
  profile: RunProfile;
  /**
   * Past this size (bytes) a connection's session log keeps only call metadata, no arguments or outputs
   * (`mcp.serve.maxSessionLogBytes`). Default 16 MiB.
   */
  maxSessionLogBytes?: number;
  /**
   * Secrets known up front (the config's keys and tokens): redacted wherever they appear as text in the
   * session logs, as a gateway run redacts its provider key. Default none.
   */
  secrets?: readonly string[];
}

/** Inputs of one connection. */
export interface ServeSessionOptions extends McpServeShared {
  /** Every tool behind the server right now: plugin tools and upstream MCP tools. */
  tools(): readonly ToolDefinition[];
  /** Safe names of the upstream servers, named in the instructions. */
  serverNames(): readonly string[];
  /** The client key that opened the connection: in its session header and on its approvals. Default: none. */
  keyId?: string;
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
  const { environment } = options;
  const log = environment.log ?? (() => {});
  const sessionLog = createMcpSessionLog({
    sessions: environment.sessions,
    maxBytes: options.maxSessionLogBytes ?? MAX_MCP_SESSION_LOG_BYTES,
    log,
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  });
  // The log of each call in flight, by call id: target activity and approvals go under its call's run id.
  const callLogs = new Map<string, McpCallLog>();
  const surface = await openRunSurface(environment, {
    profile: options.profile,
    sessionKey: sessionLog.sessionKey,
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    tools: options.tools(),
    onTargetActivity: (activity) =>
      (callLogs.get(activity.parentCallId) ?? sessionLog.startCall()).targetActivity(activity),
    // Who settled each call that waited for approval, under the run id of the call that asked.
    onApproval: (record) =>
      (
        (record.callId === undefined ? undefined : callLogs.get(record.callId)) ?? sessionLog.startCall()
      ).approval(record),
    unknownToolText,
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
