import * as z from "zod";
import { MAX_CATALOG_CACHE_SIZE } from "../../core/catalog/index.js";
import type { ToolSearchConfigValue } from "../../core/tool-search/index.js";
import {
  describeAllowedHostProblem,
  describeOriginProblem,
  describeTrustedProxyProblem,
  KEY_ID_PATTERN,
  LEGACY_TOKEN_KEY_ID,
  SCOPES,
} from "../http-guard/index.js";
import { isEnvReference } from "./env-reference.js";
import {
  MAX_CONFIG_TIMEOUT_MS,
  MAX_CONTEXT_WINDOW_TOKENS,
  MAX_GATEWAY_BODY_BYTES,
  MAX_MCP_SERVE_SESSION_LOG_BYTES,
  MAX_MCP_SERVE_SESSIONS,
  MAX_PROVIDER_RETRIES,
  MAX_QUEUED_PER_SESSION_CEILING,
  MAX_RETENTION_DAYS,
  MAX_TURNS_CEILING,
  MIN_MCP_SERVE_SESSION_IDLE_MS,
  MIN_MCP_SERVE_SESSION_LOG_BYTES,
} from "./limits.js";
import {
  bindAddress,
  configId,
  environmentMap,
  flag,
  headerMap,
  httpUrl,
  idMap,
  integerBetween,
  isPostgresUrl,
  modelReference,
  nonEmptyText,
  oneOf,
  section,
  text,
  textList,
} from "./schema-fields.js";

/** Zod `params` flag on custom issues whose message should not end with `(got …)`. */
export const OMIT_RECEIVED = "omitReceived";

const timeoutMs = () => integerBetween(1, MAX_CONFIG_TIMEOUT_MS);

/** One client key of the gateway and `mcp serve` (`gateway.auth.keys[]`). */
const authKeySchema = section({
  id: z.string({ error: "expected a string" }).regex(KEY_ID_PATTERN, {
    error: 'expected a key id of 1 to 32 letters, digits, "_" and "-", starting with a letter or digit',
  }),
  token: nonEmptyText(),
  scopes: z
    .array(oneOf(SCOPES), { error: `expected a list of scopes (${SCOPES.join(", ")})` })
    .min(1, { error: `expected at least one scope (${SCOPES.join(", ")})` }),
  agents: z.array(configId(), { error: "expected a list of agent ids" }).optional(),
});

/**
 * `gateway.auth`: the legacy token (the admin key "admin") and the client keys. Ids and tokens must be unique
 * (tokens are compared again once `env:` references are resolved, when the server starts).
 */
const authSchema = section({
  token: nonEmptyText().optional(),
  keys: z
    .array(authKeySchema, { error: "expected a list of keys ({ id, token, scopes, agents? })" })
    .optional(),
}).superRefine((auth, context) => {
  const ids = new Map<string, number>();
  const tokens = new Map<string, number>();
  for (const [index, key] of (auth.keys ?? []).entries()) {
    const sameId = ids.get(key.id);
    if (sameId !== undefined || (auth.token !== undefined && key.id === LEGACY_TOKEN_KEY_ID)) {
      context.addIssue({
        code: "custom",
        path: ["keys", index, "id"],
        message:
          sameId !== undefined
            ? `the id "${key.id}" is already used by keys[${sameId}]: give every key its own id`
            : `the id "${LEGACY_TOKEN_KEY_ID}" is taken by gateway.auth.token (the admin key): rename this key`,
        params: { [OMIT_RECEIVED]: true },
      });
    } else ids.set(key.id, index);
    const sameToken = tokens.get(key.token);
    if (sameToken !== undefined || key.token === auth.token) {
      context.addIssue({
        code: "custom",
        path: ["keys", index, "token"],
        message: `the same token as ${sameToken === undefined ? "gateway.auth.token" : `keys[${sameToken}]`}: every key needs its own token`,
        params: { [OMIT_RECEIVED]: true },
      });
    } else tokens.set(key.token, index);
  }
});

/** One provider of `models.providers` (read by the providers as `ProviderSettings`). */
const providerSchema = section({
  api: oneOf(["openai-responses", "openai-chat", "anthropic-messages"]),
  baseUrl: httpUrl().optional(),
  apiKey: nonEmptyText().optional(),
  localService: flag().optional(),
  timeoutMs: timeoutMs().optional(),
  maxRetries: integerBetween(0, MAX_PROVIDER_RETRIES).optional(),
  headers: headerMap().optional(),
});

const toolPolicyShape = {
  /** `minimal` (no core tools), `coding` (core tools), `full` (everything admitted). Default `full`. */
  profile: oneOf(["minimal", "coding", "full"]).optional(),
  /** When non-empty, only these (names, globs, `group:…`, `plugin:<id>`, `mcp:<server>`). */
  allow: textList().optional(),
  /** Added to the profile or allow list. */
  alsoAllow: textList().optional(),
  /** Always wins. */
  deny: textList().optional(),
};

/** Tool policy keys, global (`tools`), per agent (`agents.list[].tools`) and per sandbox. */
export const toolPolicySchema = section(toolPolicyShape);

const agentSettingsShape = {
  /** `provider/model`, e.g. `openai/gpt-5.4-mini`. */
  model: modelReference().optional(),
  /** Default `embedded`. */
  harness: oneOf(["embedded", "copilot", "codex"]).optional(),
  /** The directory core tools work in. */
  workspace: nonEmptyText().optional(),
  contextWindowTokens: integerBetween(1, MAX_CONTEXT_WINDOW_TOKENS).optional(),
  /** Base instructions at the top of the system prompt. */
  instructions: text().optional(),
  /** Most model requests in one run. Default 24. */
  maxTurns: integerBetween(1, MAX_TURNS_CEILING).optional(),
  /** Wall-clock limit of one run in ms. Default 600,000. */
  runTimeoutMs: timeoutMs().optional(),
  experimental: section({ localModelLean: flag().optional() }).optional(),
};

/** Settings an agent inherits from `agents.defaults` and may override in `agents.list[]`. */
export const agentSettingsSchema = section(agentSettingsShape);

/** One entry of `agents.list`. */
export const agentEntrySchema = section({
  id: configId(),
  ...agentSettingsShape,
  tools: toolPolicySchema.optional(),
  sandbox: section({ tools: toolPolicySchema.optional() }).optional(),
});

const agentListSchema = z.array(agentEntrySchema, { error: "expected a list of agents ({ id, … })" });

/** An MCP server: stdio (`command`) or Streamable HTTP (`url`). */
export const mcpServerSchema = section({
  command: nonEmptyText().optional(),
  args: z.array(text(), { error: "expected a list of strings" }).optional(),
  env: environmentMap().optional(),
  cwd: nonEmptyText().optional(),
  url: httpUrl().optional(),
  headers: headerMap().optional(),
  /** How long one `tools/call` may take, in ms. Default 60,000. */
  timeoutMs: timeoutMs().optional(),
  /**
   * How long the server may take to start, initialise and list its tools, in ms; `mcp serve` and the first
   * run wait at most this long for it. Default 15,000.
   */
  startTimeoutMs: timeoutMs().optional(),
  /**
   * Tool names of this server kept directly visible (an operator trust decision: their input schemas are
   * validated and declared to the model like native ones). Default none.
   */
  alwaysVisible: textList().optional(),
}).superRefine((server, context) => {
  const hasCommand = server.command !== undefined;
  const hasUrl = server.url !== undefined;
  if (hasCommand === hasUrl) {
    context.addIssue({
      code: "custom",
      message: hasCommand
        ? "set command (stdio) or url (Streamable HTTP), not both"
        : "expected command (stdio) or url (Streamable HTTP)",
      params: { [OMIT_RECEIVED]: true },
    });
  }
});

/**
 * The whole config file (`toolsift.json`, JSON5); its inferred type is ToolsiftConfig. Every object is strict,
 * so a misspelt key is an error. `tools.toolSearch` is checked by validateToolSearchConfig, which owns its rules
 * and messages.
 */
export const configFileSchema = section({
  models: section({ providers: idMap(providerSchema).optional() }).optional(),
  agents: section({
    defaults: agentSettingsSchema.optional(),
    list: agentListSchema.optional(),
  }).optional(),
  tools: section({
    ...toolPolicyShape,
    /**
     * As written in the file, or as loadConfig hands it on: read once into Tool Search's typed settings
     * (`readToolSearchSettings`). See resolveToolSearchConfig.
     */
    toolSearch: z.custom<ToolSearchConfigValue>().optional(),
    approval: section({
      require: textList().optional(),
      mode: oneOf(["ask", "allow", "deny"]).optional(),
      timeoutMs: timeoutMs().optional(),
    }).optional(),
    /**
     * How many tool sets keep their built catalog (entries, fingerprint, search index) for later runs; 0
     * rebuilds every run. Default 16.
     */
    catalogCacheSize: integerBetween(0, MAX_CATALOG_CACHE_SIZE).optional(),
  }).optional(),
  plugins: section({
    load: section({ paths: textList().optional() }).optional(),
    allow: textList().optional(),
    entries: idMap(section({ config: z.unknown().optional() })).optional(),
  }).optional(),
  mcp: section({
    servers: idMap(mcpServerSchema).optional(),
    /** `toolsift mcp serve` (see src/front-doors/mcp-server/DESIGN.md). */
    serve: section({
      /**
       * Most Streamable HTTP sessions kept at once (1 to 10,000). At the cap a new client evicts the least
       * recently used idle session; 503 with `Retry-After` only when every session has a call running. Default 64.
       */
      maxSessions: integerBetween(1, MAX_MCP_SERVE_SESSIONS).optional(),
      /** A Streamable HTTP session without a request for this long (ms, at least 1,000) is closed. Default 30 minutes. */
      sessionIdleMs: integerBetween(MIN_MCP_SERVE_SESSION_IDLE_MS, MAX_CONFIG_TIMEOUT_MS).optional(),
      /**
       * Past this size (bytes, 64 KiB to 1 GiB) one connection's session log keeps only each call's metadata,
       * not its arguments and outputs. Default 16 MiB.
       */
      maxSessionLogBytes: integerBetween(
        MIN_MCP_SERVE_SESSION_LOG_BYTES,
        MAX_MCP_SERVE_SESSION_LOG_BYTES,
      ).optional(),
    }).optional(),
  }).optional(),
  codeMode: section({ enabled: flag().optional(), timeoutMs: timeoutMs().optional() }).optional(),
  /** Session logs: `retention` prunes them at gateway start and hourly (sessions/prune-session-logs.ts). */
  sessions: section({
    retention: section({
      maxAgeDays: integerBetween(1, MAX_RETENTION_DAYS).optional(),
      maxTotalBytes: integerBetween(1, Number.MAX_SAFE_INTEGER).optional(),
    }).optional(),
  }).optional(),
  /** OpenTelemetry export of the gateway and `mcp serve` (see src/runtime/telemetry/DESIGN.md). Default: off. */
  telemetry: section({
    /** OTLP/HTTP collector; `endpoint` is the base URL (`http://localhost:4318`). Default: `OTEL_EXPORTER_OTLP_ENDPOINT`. */
    otlp: section({ endpoint: httpUrl().optional(), headers: headerMap().optional() }).optional(),
    /** Put tool arguments and results (redacted) on `execute_tool` spans. Default false. */
    captureToolContent: flag().optional(),
  }).optional(),
  gateway: section({
    bind: bindAddress().optional(),
    port: integerBetween(0, 65_535).optional(),
    /**
     * Who may call the gateway and `mcp serve --http`. `token`: one admin key (id "admin"). `keys`: client
     * keys with scopes ("runs", "sessions:read", "approvals", "admin") and, optionally, the agents they may
     * run. Default: none (loopback only; every local caller is trusted with every scope).
     */
    auth: authSchema.optional(),
    maxBodyBytes: integerBetween(1, MAX_GATEWAY_BODY_BYTES).optional(),
    /** Most runs waiting behind a session's running run (429 beyond). Default 8. */
    maxQueuedPerSession: integerBetween(0, MAX_QUEUED_PER_SESSION_CEILING).optional(),
    /**
     * Hosted tool types a Responses client declares that toolsift cannot run (`web_search`, `file_search`, …):
     * `"omit"` leaves them out of the model's request and reports them; `"reject"` answers 400. Default `"omit"`.
     */
    hostedTools: oneOf(["omit", "reject"]).optional(),
    /** The operator console at `/console` (same keys and scopes as the API). Default true. */
    console: flag().optional(),
    /** Origins (`scheme://host[:port]`) whose web pages may call the gateway and `mcp serve`. Default: none. */
    cors: section({
      allowOrigins: z
        .array(checkedText(describeOriginProblem), {
          error: 'expected a list of origins ("http://host:port")',
        })
        .optional(),
    }).optional(),
    /** More `Host` names (any port) the gateway and `mcp serve` answer to (DNS rebinding guard). Default: none. */
    allowedHosts: z
      .array(checkedText(describeAllowedHostProblem), { error: "expected a list of host names" })
      .optional(),
    /**
     * Reverse proxies (IP addresses and CIDR ranges) whose `X-Forwarded-For` names the client: the console's
     * login and page-open limits count that address. Default: none (the TCP peer is the client).
     */
    trustedProxies: z
      .array(checkedText(describeTrustedProxyProblem), {
        error: 'expected a list of IP addresses and CIDR ranges ("10.0.0.0/8")',
      })
      .optional(),
  }).optional(),
  /**
   * Where sessions, stored responses, pending approvals and per-session run order are kept: a `postgresql://`
   * URL shared by a fleet of gateways (src/runtime/state-postgres). Default: `TOOLSIFT_STATE_URL`, else files
   * under `TOOLSIFT_STATE_DIR`.
   */
  state: section({ url: postgresUrl().optional() }).optional(),
});

/** A `postgresql://` URL or an `env:NAME` reference; the value is never echoed (it may hold a password). */
function postgresUrl() {
  return nonEmptyText().refine((value) => isEnvReference(value) || isPostgresUrl(value), {
    error:
      'expected a postgresql:// URL, e.g. "postgresql://toolsift:password@db.internal:5432/toolsift", or "env:TOOLSIFT_STATE_URL"',
    params: { [OMIT_RECEIVED]: true },
  });
}

/** A non-empty string (or `env:NAME`) that `problemOf` accepts; its answer is the message otherwise. */
function checkedText(problemOf: (value: string) => string | undefined) {
  return nonEmptyText().superRefine((value, context) => {
    const problem = isEnvReference(value) ? undefined : problemOf(value);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  });
}
