import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema, ToolCallContext, ToolResult } from "../../core/catalog/index.js";
import { mcpDirectName } from "../../core/catalog/index.js";
import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { cutText } from "../../shared/text/index.js";
import type { McpServerSettings } from "../config/index.js";
import { traceMcpClientCall } from "../telemetry/index.js";
import { describeCallFailure } from "./describe-call-failure.js";
import {
  MAX_LOGGED_LINE_CHARS,
  MAX_LOGGED_STDERR_LINES,
  RESTART_BACKOFF_INITIAL_MS,
  RESTART_BACKOFF_MAX_MS,
  RESTART_BACKOFF_RESET_MS,
} from "./limits.js";
import { type ListedTool, listServerTools } from "./list-server-tools.js";
import { openServer } from "./open-server.js";
import { checkPinnedSchema, pinMcpTool } from "./pin-mcp-tool.js";
import { toToolResult } from "./to-tool-result.js";
import type { McpServerStatus, McpToolDefinition } from "./types.js";

/** Inputs of one server connection. */
export interface ServerConnectionOptions {
  /** The name in the config (`mcp.servers.<name>`), for messages. */
  name: string;
  /** The name made safe for ids: the owner of its tools. */
  safeName: string;
  settings: McpServerSettings;
  startTimeoutMs: number;
  callTimeoutMs: number;
  baseDir: string;
  log(line: string): void;
  /** The list of tools changed (listed anew, lost on failure, found again on restart). */
  onToolsChanged(): void;
}

/**
 * One upstream MCP server over its whole life: the first start, calls, `list_changed` refetches, and
 * restarts with backoff after it stopped while ready. Nothing it does throws into its owner or leaves a
 * rejected promise unhandled: failures become its status, its log lines, or the failing call's error.
 */
export class ServerConnection {
  private readonly options: ServerConnectionOptions;
  private readonly callTimeoutMs: number;
  /** `mcp.servers.<name>.startTimeoutMs`, else the source's default. */
  private readonly startTimeoutMs: number;
  private state: McpServerStatus["status"] = "starting";
  private error: string | undefined;
  private definitions: McpToolDefinition[] = [];
  private client: Client | undefined;
  private transport: "stdio" | "http" = "stdio";
  /** Bumped whenever the connection is replaced or lost; events of an older generation are ignored. */
  private generation = 0;
  private readySince = 0;
  private restartDelayMs = RESTART_BACKOFF_INITIAL_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private refreshAgain = false;
  private stderrLines = 0;
  private lastStderrLine = "";
  private opening: AbortController | undefined;
  private pendingOpen: Promise<void> | undefined;
  private closed = false;

  constructor(options: ServerConnectionOptions) {
    this.options = options;
    this.callTimeoutMs = options.settings.timeoutMs ?? options.callTimeoutMs;
    this.startTimeoutMs = options.settings.startTimeoutMs ?? options.startTimeoutMs;
  }

  /** Starts the server; resolves when it is ready or has failed (never rejects). */
  start(): Promise<void> {
    return this.track(this.open("start"));
  }

  /** The current tools (kept while a restart is pending, empty after a failure). */
  tools(): McpToolDefinition[] {
    return this.definitions;
  }

  status(): McpServerStatus {
    const status: McpServerStatus = {
      name: this.options.safeName,
      status: this.state,
      tools: this.definitions.length,
    };
    if (this.error !== undefined) status.error = this.error;
    return status;
  }

  /** Stops the server and any pending restart; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.generation += 1;
    clearTimeout(this.restartTimer);
    this.opening?.abort();
    const client = this.client;
    this.client = undefined;
    this.state = "failed";
    this.error = "closed";
    await Promise.all([client?.close().catch(() => {}), this.pendingOpen]);
  }

  private track(opening: Promise<void>): Promise<void> {
    const tracked = opening
      .catch(() => {})
      .finally(() => {
        if (this.pendingOpen === tracked) this.pendingOpen = undefined;
      });
    this.pendingOpen = tracked;
    return tracked;
  }

  /** Calls `tool` on the server with a timeout, honouring the caller's abort (the SDK sends cancellation). */
  async call(tool: string, args: unknown, context: ToolCallContext): Promise<ToolResult> {
    const { name } = this.options;
    const client = this.client;
    if (this.closed || client === undefined || this.state !== "ready") {
      const why = this.closed ? "closed" : (this.error ?? this.state);
      throw new ToolsiftError(
        "TOOL_UNAVAILABLE",
        `MCP server "${name}" is not available for the call to "${tool}" (${why}). Try again later or pick another tool.`,
      );
    }
    if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
      throw new ToolsiftError("INVALID_ARGUMENTS", `Arguments for "${tool}" must be a JSON object.`);
    }
    const generation = this.generation;
    const controller = new AbortController();
    const signal = context.signal;
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      // A `tools/call {tool}` client span while tracing, its trace context sent in `params._meta`.
      const sessionId = client.transport?.sessionId;
      const result = await traceMcpClientCall(
        {
          tool,
          server: name,
          transport: this.transport === "http" ? "tcp" : "pipe",
          ...(sessionId === undefined ? {} : { sessionId }),
        },
        (meta) =>
          client.callTool(
            {
              name: tool,
              arguments: (args ?? {}) as Record<string, unknown>,
              ...(meta === undefined ? {} : { _meta: meta }),
            },
            CallToolResultSchema,
            { signal: controller.signal, timeout: this.callTimeoutMs },
          ),
      );
      // CallToolResultSchema was given, so the result is the current shape (never the legacy `toolResult`).
      return toToolResult(result as CallToolResult);
    } catch (error) {
      if (signal?.aborted) throw error; // the executor reports the caller's abort or its own timeout
      const failure = describeCallFailure(error, {
        server: name,
        tool,
        timeoutMs: this.callTimeoutMs,
        connectionReplaced: generation !== this.generation,
        transport: this.transport,
      });
      if (failure.connectionLost) this.stopped(generation, "the server could not be reached");
      throw failure.error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  private async open(why: "start" | "restart"): Promise<void> {
    if (this.closed) return;
    this.generation += 1;
    const generation = this.generation;
    const { name, log } = this.options;
    this.state = "starting";
    this.stderrLines = 0;
    this.lastStderrLine = "";
    const opening = new AbortController();
    this.opening = opening;
    try {
      const opened = await openServer({
        name,
        settings: this.options.settings,
        timeoutMs: this.startTimeoutMs,
        baseDir: this.options.baseDir,
        signal: opening.signal,
        onStderrLine: (line) => this.stderrLine(line),
        onClose: () => this.stopped(generation, "the server closed the connection"),
        onError: (error) => {
          // Before the server is ready its errors end up in the start failure, reported once.
          if (generation === this.generation && !this.closed && this.state === "ready")
            log(`mcp ${name}: ${cutText(messageOf(error), MAX_LOGGED_LINE_CHARS)}`);
        },
        onToolsListChanged: () => this.refresh(generation),
      });
      if (this.closed || generation !== this.generation) {
        await opened.client.close().catch(() => {});
        return;
      }
      this.client = opened.client;
      this.transport = opened.transport;
      this.state = "ready";
      this.error = undefined;
      this.readySince = Date.now();
      this.setTools(opened.tools);
      for (const problem of opened.problems) log(`mcp ${name}: ${problem}`);
      log(`mcp ${name}: ${why === "restart" ? "restarted" : "ready"}, ${opened.tools.length} tools`);
      this.options.onToolsChanged();
    } catch (error) {
      if (this.closed || generation !== this.generation) return;
      this.state = "failed";
      const stderr = this.lastStderrLine ? ` (last stderr line: ${this.lastStderrLine})` : "";
      this.error = `${messageOf(error)}${stderr}`;
      const hadTools = this.definitions.length > 0;
      this.definitions = [];
      log(`mcp ${name}: ${cutText(this.error, MAX_LOGGED_LINE_CHARS)}`);
      if (hadTools) this.options.onToolsChanged();
      if (why === "restart") this.scheduleRestart();
    } finally {
      if (this.opening === opening) this.opening = undefined;
    }
  }

  /** The connection of `generation` ended while it was ready: restart with backoff, tools kept meanwhile. */
  private stopped(generation: number, reason: string): void {
    if (this.closed || generation !== this.generation || this.state !== "ready") return;
    this.generation += 1;
    const old = this.client;
    this.client = undefined;
    old?.close().catch(() => {});
    if (Date.now() - this.readySince >= RESTART_BACKOFF_RESET_MS)
      this.restartDelayMs = RESTART_BACKOFF_INITIAL_MS;
    this.state = "starting";
    this.error = `stopped: ${reason}; restarting in ${this.restartDelayMs} ms`;
    this.options.log(`mcp ${this.options.name}: ${this.error}`);
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.closed) return;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, RESTART_BACKOFF_MAX_MS);
    if (this.state === "failed") this.error = `${this.error ?? "failed"}; next attempt in ${delay} ms`;
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.track(this.open("restart"));
    }, delay);
    this.restartTimer.unref();
  }

  /** `notifications/tools/list_changed`: re-read the list (coalescing bursts), keep the old one on failure. */
  private refresh(generation: number): void {
    if (this.closed || generation !== this.generation || this.state !== "ready") return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    void (async () => {
      do {
        this.refreshAgain = false;
        const client = this.client;
        if (client === undefined || generation !== this.generation) break;
        try {
          const listed = await listServerTools(client, { timeoutMs: this.startTimeoutMs });
          if (generation !== this.generation) break;
          this.setTools(listed.tools);
          for (const problem of listed.problems) this.options.log(`mcp ${this.options.name}: ${problem}`);
          this.options.onToolsChanged();
        } catch (error) {
          if (generation === this.generation)
            this.options.log(
              `mcp ${this.options.name}: could not re-read tools after list_changed (${cutText(messageOf(error), MAX_LOGGED_LINE_CHARS)}); keeping the previous list`,
            );
        }
      } while (this.refreshAgain && generation === this.generation);
      this.refreshing = false;
      // A notice from a newer connection that arrived while this loop ran is served now.
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.refresh(this.generation);
      }
    })();
  }

  private setTools(tools: readonly ListedTool[]): void {
    this.definitions = tools.map((tool) => this.pinned(this.definition(tool), tool));
    const pins = this.options.settings.alwaysVisible ?? [];
    const missing = pins.filter((name) => !tools.some((tool) => tool.name === name));
    if (missing.length > 0) {
      this.options.log(
        `mcp ${this.options.name}: mcp.servers.${this.options.name}.alwaysVisible names ${cutText(missing.map((name) => JSON.stringify(name)).join(", "), MAX_LOGGED_LINE_CHARS)}, which the server does not list`,
      );
    }
  }

  /** A tool the operator pinned (`alwaysVisible`) with a usable schema becomes visible and validated. */
  private pinned(definition: McpToolDefinition, tool: ListedTool): McpToolDefinition {
    if (!(this.options.settings.alwaysVisible ?? []).includes(tool.name)) return definition;
    const check = checkPinnedSchema(tool.inputSchema);
    if (check.ok) return pinMcpTool(definition, check.validate);
    this.options.log(
      `mcp ${this.options.name}: "${cutText(tool.name, MAX_LOGGED_LINE_CHARS)}" is in alwaysVisible but ${check.reason}; it stays behind tool_search`,
    );
    return definition;
  }

  private definition(tool: ListedTool): McpToolDefinition {
    const server = this.options.safeName;
    const definition: McpToolDefinition = {
      name: tool.name,
      origin: { kind: "mcp", owner: server },
      directName: mcpDirectName(server, tool.name),
      mcp: { server, tool: tool.name },
      execute: (args, context) => this.call(tool.name, args, context ?? {}),
    };
    if (tool.title !== undefined) definition.label = tool.title;
    if (tool.description !== undefined) definition.description = tool.description;
    if (tool.inputSchema !== undefined) definition.parameters = tool.inputSchema as JsonSchema;
    return definition;
  }

  private stderrLine(line: string): void {
    this.lastStderrLine = cutText(line, MAX_LOGGED_LINE_CHARS);
    this.stderrLines += 1;
    if (this.stderrLines <= MAX_LOGGED_STDERR_LINES)
      this.options.log(`mcp ${this.options.name}: ${this.lastStderrLine}`);
    else if (this.stderrLines === MAX_LOGGED_STDERR_LINES + 1)
      this.options.log(`mcp ${this.options.name}: further stderr output is not copied into this log`);
  }
}
