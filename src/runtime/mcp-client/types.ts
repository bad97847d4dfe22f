import type { McpToolDefinition } from "../../core/catalog/index.js";

export type { McpToolDefinition };

/** How one upstream MCP server is doing. */
export interface McpServerStatus {
  /** The server name made safe for ids (`[A-Za-z0-9_-]`), as it appears in `mcp:<server>:<tool>`. */
  name: string;
  /** `starting` also covers a restart after the server stopped. */
  status: "ready" | "failed" | "starting";
  /** Tools currently listed from this server. */
  tools: number;
  /** Why it failed (or why it is restarting). */
  error?: string;
}

/** Options of createMcpToolSource. */
export interface McpToolSourceOptions {
  /** One line per notable event (a server failed, restarted, changed its list; its stderr). Default none. */
  log?: (line: string) => void;
  /** Per server: start, initialise and list within this many ms. Default 15,000. */
  startTimeoutMs?: number;
  /** Per call, unless the server sets `timeoutMs`. Default 60,000. */
  callTimeoutMs?: number;
  /** Directory relative `cwd` values resolve against, and the default `cwd`. Default: the working directory. */
  baseDir?: string;
}

/** Upstream MCP servers as one tool source: start them, read their tools, call them, watch them. */
export interface McpToolSource {
  /** Connects every server in parallel; resolves when each is ready or has failed (never rejects). */
  start(): Promise<void>;
  /** The current tools of every ready server, in config order. */
  tools(): McpToolDefinition[];
  /** The version of `tools()`: it goes up whenever any server's tool list changes, and only then. */
  version(): number;
  /** One entry per configured server, in config order. */
  status(): McpServerStatus[];
  /** Called after any server's tool list changed (list_changed, restart, failure). Returns an unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Stops every server; later calls fail and `start` does nothing. */
  close(): Promise<void>;
}
