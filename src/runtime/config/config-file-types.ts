import type { Harness, ToolSearchConfigValue } from "../../core/tool-search/index.js";
import type { ProviderSettings } from "../providers/index.js";

/** Tool policy keys, global (`tools`), per agent (`agents.list[].tools`) and per sandbox. */
export interface ToolPolicySettings {
  /** `minimal` (no core tools), `coding` (core tools), `full` (everything admitted). Default `full`. */
  profile?: "minimal" | "coding" | "full";
  /** When non-empty, only these (names, globs, `group:…`, `plugin:<id>`, `mcp:<server>`). */
  allow?: string[];
  /** Added to the profile or allow list. */
  alsoAllow?: string[];
  /** Always wins. */
  deny?: string[];
}

/** Settings an agent inherits from `agents.defaults` and may override in `agents.list[]`. */
export interface AgentSettings {
  /** `provider/model`, e.g. `openai/gpt-5.4-mini`. */
  model?: string;
  /** Default `embedded`. */
  harness?: Harness;
  /** The directory core tools work in. */
  workspace?: string;
  contextWindowTokens?: number;
  /** Base instructions at the top of the system prompt. */
  instructions?: string;
  /** Most model requests in one run. Default 24. */
  maxTurns?: number;
  /** Wall-clock limit of one run in ms. Default 600,000. */
  runTimeoutMs?: number;
  experimental?: { localModelLean?: boolean };
}

/** One entry of `agents.list`. */
export interface AgentEntry extends AgentSettings {
  id: string;
  tools?: ToolPolicySettings;
  sandbox?: { tools?: ToolPolicySettings };
}

/** An MCP server: stdio (`command`) or Streamable HTTP (`url`). */
export interface McpServerSettings {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** How long one `tools/call` may take, in ms. Default 60,000. */
  timeoutMs?: number;
  /**
   * How long the server may take to start, initialise and list its tools, in ms; `mcp serve` and the first
   * run wait at most this long for it. Default 15,000.
   */
  startTimeoutMs?: number;
  /**
   * Tool names of this server kept directly visible (an operator trust decision: their input schemas are
   * validated and declared to the model like native ones). Default none.
   */
  alwaysVisible?: string[];
}

/** The whole config file (`toolsift.json`, JSON5), after `env:NAME` values are resolved. */
export interface ToolsiftConfig {
  models?: { providers?: Record<string, ProviderSettings> };
  agents?: { defaults?: AgentSettings; list?: AgentEntry[] };
  tools?: ToolPolicySettings & {
    /**
     * As written in the file. loadConfig reads it once into Tool Search's typed settings
     * (`LoadedConfig.toolSearch`), which is what runs use. See resolveToolSearchConfig.
     */
    toolSearch?: ToolSearchConfigValue;
    approval?: { require?: string[]; mode?: "ask" | "allow" | "deny"; timeoutMs?: number };
    /**
     * How many tool sets keep their built catalog (entries, fingerprint, search index) for later runs; 0
     * rebuilds every run. Default 16.
     */
    catalogCacheSize?: number;
  };
  plugins?: { load?: { paths?: string[] }; allow?: string[]; entries?: Record<string, { config?: unknown }> };
  mcp?: {
    servers?: Record<string, McpServerSettings>;
    /** `toolsift mcp serve` (see src/front-doors/mcp-server/DESIGN.md). */
    serve?: {
      /**
       * Most Streamable HTTP sessions kept at once (1 to 10,000). At the cap a new client evicts the least
       * recently used idle session; 503 with `Retry-After` only when every session has a call running. Default 64.
       */
      maxSessions?: number;
      /** A Streamable HTTP session without a request for this long (ms, at least 1,000) is closed. Default 30 minutes. */
      sessionIdleMs?: number;
      /**
       * Past this size (bytes, 64 KiB to 1 GiB) one connection's session log keeps only each call's metadata,
       * not its arguments and outputs. Default 16 MiB.
       */
      maxSessionLogBytes?: number;
    };
  };
  codeMode?: { enabled?: boolean; timeoutMs?: number };
  /** Session logs: `retention` prunes them at gateway start and hourly (sessions/prune-session-logs.ts). */
  sessions?: { retention?: { maxAgeDays?: number; maxTotalBytes?: number } };
  /** OpenTelemetry export of the gateway and `mcp serve` (see src/runtime/telemetry/DESIGN.md). Default: off. */
  telemetry?: {
    /** OTLP/HTTP collector; `endpoint` is the base URL (`http://localhost:4318`). Default: `OTEL_EXPORTER_OTLP_ENDPOINT`. */
    otlp?: { endpoint?: string; headers?: Record<string, string> };
    /** Put tool arguments and results (redacted) on `execute_tool` spans. Default false. */
    captureToolContent?: boolean;
  };
  gateway?: {
    bind?: string;
    port?: number;
    /**
     * Who may call the gateway and `mcp serve --http`. `token`: one admin key (id "admin"). `keys`: client
     * keys with scopes ("runs", "sessions:read", "approvals", "admin") and, optionally, the agents they may
     * run. Default: none (loopback only; every local caller is trusted with every scope).
     */
    auth?: {
      token?: string;
      keys?: Array<{
        id: string;
        token: string;
        scopes: Array<"runs" | "sessions:read" | "approvals" | "admin">;
        agents?: string[];
      }>;
    };
    maxBodyBytes?: number;
    /** Most runs waiting behind a session's running run (429 beyond). Default 8. */
    maxQueuedPerSession?: number;
    /**
     * Hosted tool types a Responses client declares that toolsift cannot run (`web_search`, `file_search`, …):
     * `"omit"` leaves them out of the model's request and reports them; `"reject"` answers 400. Default `"omit"`.
     */
    hostedTools?: "omit" | "reject";
    /** Origins (`scheme://host[:port]`) whose web pages may call the gateway and `mcp serve`. Default: none. */
    cors?: { allowOrigins?: string[] };
    /** More `Host` names (any port) the gateway and `mcp serve` answer to (DNS rebinding guard). Default: none. */
    allowedHosts?: string[];
  };
}
