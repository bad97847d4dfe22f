import type { ToolDefinition } from "../../core/catalog/index.js";
import { readToolSearchSettings, type ToolSearchConfigValue } from "../../core/tool-search/index.js";
import { MCP_SERVE_PROFILE_ID, type RunSurfaceEnvironment } from "../../runtime/environment/index.js";
import type { PolicyLayers } from "../../runtime/policy/index.js";
import type { SessionStore } from "../../runtime/sessions/index.js";
import type { McpServeShared } from "./serve-session.js";

/** What an `mcp serve` test sets, flat: the rest of the environment and the `mcp` profile take their defaults. */
export interface TestServeOptions {
  /** Plugin tools served next to the upstream ones. Default none. */
  tools?: readonly ToolDefinition[];
  /** `tools.toolSearch` as a file would hold it. Default unset. */
  toolSearch?: ToolSearchConfigValue;
  policy?: PolicyLayers;
  approvals?: RunSurfaceEnvironment["approvals"];
  sessions: SessionStore;
  maxSessionLogBytes?: number;
  log?: (line: string) => void;
  /** Secrets known up front, redacted wherever they appear in the session logs. Default none. */
  secrets?: readonly string[];
}

/** The environment and `mcp` profile of a test's `mcp serve` (no model, `embedded` harness). */
export function testServeShared(options: TestServeOptions): McpServeShared {
  const toolSearch = readToolSearchSettings(options.toolSearch).settings;
  if (!toolSearch) throw new Error(`invalid test toolSearch: ${JSON.stringify(options.toolSearch)}`);
  return {
    environment: {
      toolSearch,
      sessions: options.sessions,
      ...(options.tools
        ? {
            plugins: {
              plugins: [],
              tools: [...options.tools],
              hooks: { beforeToolCall: [], beforePrompt: [] },
              errors: [],
              skipped: [],
            },
          }
        : {}),
      ...(options.approvals ? { approvals: options.approvals } : {}),
      ...(options.log ? { log: options.log } : {}),
    },
    profile: {
      id: MCP_SERVE_PROFILE_ID,
      harness: "embedded",
      ...(options.policy ? { policy: options.policy } : {}),
    },
    ...(options.maxSessionLogBytes === undefined ? {} : { maxSessionLogBytes: options.maxSessionLogBytes }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  };
}
