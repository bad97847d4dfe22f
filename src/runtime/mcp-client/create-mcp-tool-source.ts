import { messageOf } from "../../shared/errors/index.js";
import type { McpServerSettings } from "../config/index.js";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS } from "./limits.js";
import { ServerConnection } from "./server-connection.js";
import type { McpToolDefinition, McpToolSource, McpToolSourceOptions } from "./types.js";

/**
 * Upstream MCP servers (`mcp.servers`) as one tool source. `start()` connects to all of them in parallel,
 * each within its own start timeout; a server that fails to start or list is reported (log, `status()`)
 * and left out while the rest work. Tools keep their own name and schema (passed through untouched) and
 * carry the safe server name as owner, so catalog ids are `mcp:<server>:<tool>`.
 */
export function createMcpToolSource(
  servers: Readonly<Record<string, McpServerSettings>>,
  options: McpToolSourceOptions = {},
): McpToolSource {
  const listeners = new Set<() => void>();
  const log = (line: string) => {
    try {
      options.log?.(line);
    } catch {
      // a broken log sink must not break the source
    }
  };
  const notify = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        log(`mcp: a tools-changed listener failed: ${messageOf(error)}`);
      }
    }
  };
  const names = Object.keys(servers);
  const safeNames = safeServerNames(names);
  const connections = names.map(
    (name) =>
      new ServerConnection({
        name,
        safeName: safeNames.get(name) ?? name,
        settings: servers[name] ?? {},
        startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        baseDir: options.baseDir ?? process.cwd(),
        log,
        onToolsChanged: notify,
      }),
  );
  let started: Promise<void> | undefined;
  let lastParts: McpToolDefinition[][] = [];
  let lastTools: McpToolDefinition[] = [];
  let version = 0;
  /** The current list: the last one while no connection swapped its own (runs over it then share one catalog). */
  const current = (): McpToolDefinition[] => {
    const parts = connections.map((connection) => connection.tools());
    if (parts.length !== lastParts.length || parts.some((part, index) => part !== lastParts[index])) {
      lastParts = parts;
      lastTools = Object.freeze(parts.flat()) as McpToolDefinition[];
      version += 1;
    }
    return lastTools;
  };
  let closed = false;

  return {
    start() {
      if (closed) return Promise.resolve();
      started ??= Promise.all(connections.map((connection) => connection.start())).then(() => undefined);
      return started;
    },
    tools: current,
    version() {
      current();
      return version;
    },
    status() {
      return connections.map((connection) => connection.status());
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

/** What a server name that keeps no safe character becomes. */
const FALLBACK_NAME = "server";

/**
 * Maps each configured server name to a name safe for catalog ids (`[A-Za-z0-9_-]`): every other character
 * becomes `_`, and a name that then clashes with an earlier one gets `_2`, `_3`, … (config order decides).
 */
export function safeServerNames(names: readonly string[]): Map<string, string> {
  const safe = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    const base = name.replace(/[^A-Za-z0-9_-]/gu, "_") || FALLBACK_NAME;
    let candidate = base;
    for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${base}_${suffix}`;
    taken.add(candidate);
    safe.set(name, candidate);
  }
  return safe;
}
