import { resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import type { McpServerSettings } from "../config/index.js";
import { MAX_STDIO_BUFFER_BYTES } from "./limits.js";
import { type ListedTool, listServerTools } from "./list-server-tools.js";

/** Name and version toolsift reports in MCP `initialize` (as a client, and by `mcp serve` as a server). */
export const MCP_IMPLEMENTATION = { name: "toolsift", version: "0.1.0" } as const;

/** A connected, initialised server and its full tool list. */
export interface OpenedServer {
  client: Client;
  transport: "stdio" | "http";
  tools: ListedTool[];
  problems: string[];
}

/** Inputs of openServer. */
export interface OpenServerOptions {
  /** The server's name in the config (`mcp.servers.<name>`), for messages. */
  name: string;
  settings: McpServerSettings;
  /** Start, initialise and list within this many ms. */
  timeoutMs: number;
  /** Relative `cwd` values resolve against it; it is also the default `cwd`. */
  baseDir: string;
  /** Each line the server writes to stderr (stdio servers). */
  onStderrLine(line: string): void;
  /** The connection closed (the process exited, or the client was closed). */
  onClose(): void;
  /** A transport or protocol error that does not end the connection by itself. */
  onError(error: Error): void;
  /** The server sent `notifications/tools/list_changed`. */
  onToolsListChanged(): void;
  /** Aborting gives up the start and stops the server. */
  signal?: AbortSignal;
}

/**
 * Starts one upstream server (spawns a stdio command, or opens a Streamable HTTP session), initialises it
 * and reads its whole tool list, all within `timeoutMs`. On any failure the connection is closed (the
 * process stopped) and a ToolsiftError names the server and the reason.
 */
export async function openServer(options: OpenServerOptions): Promise<OpenedServer> {
  const { name, settings } = options;
  const transport = createTransport(options);
  const client = new Client({ ...MCP_IMPLEMENTATION }, { capabilities: {} });
  let opened = false;
  client.onclose = () => {
    if (opened) options.onClose();
  };
  client.onerror = (error) => options.onError(error);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsListChanged());

  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => {};
  const deadline = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(new ToolsiftError("TOOL_UNAVAILABLE", `MCP server "${name}" was closed while it started.`));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    timer = setTimeout(
      () =>
        reject(
          new ToolsiftError(
            "TOOL_UNAVAILABLE",
            `MCP server "${name}" did not start and list its tools within ${options.timeoutMs} ms.`,
          ),
        ),
      options.timeoutMs,
    );
  });
  const remaining = () => Math.max(1, options.timeoutMs - (Date.now() - started));
  const work = (async () => {
    await client.connect(transport, { timeout: remaining() });
    return listServerTools(client, { timeoutMs: remaining() });
  })();
  work.catch(() => {});
  try {
    const listed = await Promise.race([work, deadline]);
    opened = true;
    return { client, transport: settings.command === undefined ? "http" : "stdio", ...listed };
  } catch (error) {
    // Stopped before reporting, so a failed start never leaves a process behind.
    await client.close().catch(() => {});
    throw startFailure(name, settings, error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

function createTransport(options: OpenServerOptions): Transport {
  const { settings } = options;
  if (settings.command !== undefined) {
    const transport = new StdioClientTransport({
      command: settings.command,
      args: settings.args ?? [],
      ...(settings.env ? { env: settings.env } : {}),
      cwd: resolve(options.baseDir, settings.cwd ?? "."),
      stderr: "pipe",
      maxBufferSize: MAX_STDIO_BUFFER_BYTES,
    });
    const stderr = transport.stderr;
    if (stderr) {
      const lines = createInterface({ input: stderr as Readable, crlfDelay: Number.POSITIVE_INFINITY });
      lines.on("line", (line) => options.onStderrLine(line));
      lines.on("error", () => {});
    }
    return transport;
  }
  if (settings.url !== undefined) {
    return new StreamableHTTPClientTransport(new URL(settings.url), {
      requestInit: { headers: { ...(settings.headers ?? {}) } },
    });
  }
  throw new ToolsiftError(
    "CONFIG_INVALID",
    `MCP server "${options.name}" has neither "command" nor "url": set mcp.servers.${options.name}.command (stdio) or .url (Streamable HTTP).`,
  );
}

function startFailure(name: string, settings: McpServerSettings, error: unknown): ToolsiftError {
  if (error instanceof ToolsiftError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = messageOf(error);
  if (code === "ENOENT" && settings.command !== undefined && /\s/u.test(settings.command.trim())) {
    const [program = "", ...words] = settings.command.trim().split(/\s+/u);
    const args = JSON.stringify([...words, ...(settings.args ?? [])]);
    return new ToolsiftError(
      "TOOL_UNAVAILABLE",
      `MCP server "${name}" could not start: no program is named "${settings.command}". command holds the program alone and args its arguments: set mcp.servers.${name}.command to "${program}" and .args to ${args}.`,
    );
  }
  if (code === "ENOENT" && settings.command !== undefined) {
    return new ToolsiftError(
      "TOOL_UNAVAILABLE",
      `MCP server "${name}" could not start: the command "${settings.command}" was not found. Check mcp.servers.${name}.command and PATH.`,
    );
  }
  if (code === -32000) {
    return new ToolsiftError(
      "TOOL_UNAVAILABLE",
      `MCP server "${name}" closed the connection before it was ready (the process exited or refused the session).`,
    );
  }
  return new ToolsiftError("TOOL_UNAVAILABLE", `MCP server "${name}" could not start: ${message}`);
}
