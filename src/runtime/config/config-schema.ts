import * as z from "zod";
import {
  describeAllowedHostProblem,
  describeOriginProblem,
  KEY_ID_PATTERN,
  LEGACY_TOKEN_KEY_ID,
  SCOPES,
} from "../http-guard/index.js";
import { isEnvReference } from "./env-reference.js";
import {
  MAX_CATALOG_CACHE_SIZE,
  MAX_CONTEXT_WINDOW_TOKENS,
  MAX_GATEWAY_BODY_BYTES,
  MAX_MCP_SERVE_SESSION_LOG_BYTES,
  MAX_MCP_SERVE_SESSIONS,
  MAX_PROVIDER_RETRIES,
  MAX_QUEUED_PER_SESSION_CEILING,
  MAX_RETENTION_DAYS,
  MAX_TIMEOUT_MS,
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
  modelReference,
  nonEmptyText,
  oneOf,
  section,
  text,
  textList,
} from "./schema-fields.js";

/** Zod `params` flag on custom issues whose message should not end with `(got …)`. */
export const OMIT_RECEIVED = "omitReceived";

const timeoutMs = () => integerBetween(1, MAX_TIMEOUT_MS);

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
  profile: oneOf(["minimal", "coding", "full"]).optional(),
  allow: textList().optional(),
  alsoAllow: textList().optional(),
  deny: textList().optional(),
};

const toolPolicySchema = section(toolPolicyShape);

const agentSettingsShape = {
  model: modelReference().optional(),
  harness: oneOf(["embedded", "copilot", "codex"]).optional(),
  workspace: nonEmptyText().optional(),
  contextWindowTokens: integerBetween(1, MAX_CONTEXT_WINDOW_TOKENS).optional(),
  instructions: text().optional(),
  maxTurns: integerBetween(1, MAX_TURNS_CEILING).optional(),
  runTimeoutMs: timeoutMs().optional(),
  experimental: section({ localModelLean: flag().optional() }).optional(),
};

const agentEntrySchema = section({
  id: configId(),
  ...agentSettingsShape,
  tools: toolPolicySchema.optional(),
  sandbox: section({ tools: toolPolicySchema.optional() }).optional(),
});

const agentListSchema = z.array(agentEntrySchema, { error: "expected a list of agents ({ id, … })" });

const mcpServerSchema = section({
  command: nonEmptyText().optional(),
  args: z.array(text(), { error: "expected a list of strings" }).optional(),
  env: environmentMap().optional(),
  cwd: nonEmptyText().optional(),
  url: httpUrl().optional(),
  headers: headerMap().optional(),
  timeoutMs: timeoutMs().optional(),
  startTimeoutMs: timeoutMs().optional(),
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
 * The whole config file, mirroring ToolsiftConfig. Every object is strict, so a misspelt key is an error.
 * `tools.toolSearch` is checked by validateToolSearchConfig, which owns its rules and messages.
 */
export const configFileSchema = section({
  models: section({ providers: idMap(providerSchema).optional() }).optional(),
  agents: section({
    defaults: section(agentSettingsShape).optional(),
    list: agentListSchema.optional(),
  }).optional(),
  tools: section({
    ...toolPolicyShape,
    toolSearch: z.unknown().optional(),
    approval: section({
      require: textList().optional(),
      mode: oneOf(["ask", "allow", "deny"]).optional(),
      timeoutMs: timeoutMs().optional(),
    }).optional(),
    catalogCacheSize: integerBetween(0, MAX_CATALOG_CACHE_SIZE).optional(),
  }).optional(),
  plugins: section({
    load: section({ paths: textList().optional() }).optional(),
    allow: textList().optional(),
    entries: idMap(section({ config: z.unknown().optional() })).optional(),
  }).optional(),
  mcp: section({
    servers: idMap(mcpServerSchema).optional(),
    serve: section({
      maxSessions: integerBetween(1, MAX_MCP_SERVE_SESSIONS).optional(),
      sessionIdleMs: integerBetween(MIN_MCP_SERVE_SESSION_IDLE_MS, MAX_TIMEOUT_MS).optional(),
      maxSessionLogBytes: integerBetween(
        MIN_MCP_SERVE_SESSION_LOG_BYTES,
        MAX_MCP_SERVE_SESSION_LOG_BYTES,
      ).optional(),
    }).optional(),
  }).optional(),
  codeMode: section({ enabled: flag().optional(), timeoutMs: timeoutMs().optional() }).optional(),
  sessions: section({
    retention: section({
      maxAgeDays: integerBetween(1, MAX_RETENTION_DAYS).optional(),
      maxTotalBytes: integerBetween(1, Number.MAX_SAFE_INTEGER).optional(),
    }).optional(),
  }).optional(),
  telemetry: section({
    otlp: section({ endpoint: httpUrl().optional(), headers: headerMap().optional() }).optional(),
    captureToolContent: flag().optional(),
  }).optional(),
  gateway: section({
    bind: bindAddress().optional(),
    port: integerBetween(0, 65_535).optional(),
    auth: authSchema.optional(),
    maxBodyBytes: integerBetween(1, MAX_GATEWAY_BODY_BYTES).optional(),
    maxQueuedPerSession: integerBetween(0, MAX_QUEUED_PER_SESSION_CEILING).optional(),
    hostedTools: oneOf(["omit", "reject"]).optional(),
    cors: section({
      allowOrigins: z
        .array(checkedText(describeOriginProblem), {
          error: 'expected a list of origins ("http://host:port")',
        })
        .optional(),
    }).optional(),
    allowedHosts: z
      .array(checkedText(describeAllowedHostProblem), { error: "expected a list of host names" })
      .optional(),
  }).optional(),
});

/** A non-empty string (or `env:NAME`) that `problemOf` accepts; its answer is the message otherwise. */
function checkedText(problemOf: (value: string) => string | undefined) {
  return nonEmptyText().superRefine((value, context) => {
    const problem = isEnvReference(value) ? undefined : problemOf(value);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  });
}
