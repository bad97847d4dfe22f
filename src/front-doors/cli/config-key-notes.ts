import { DEFAULT_CATALOG_CACHE_SIZE } from "../../core/catalog/index.js";
import {
  DEFAULT_APPROVAL_MODE,
  DEFAULT_APPROVAL_REQUIRE,
  DEFAULT_APPROVAL_TIMEOUT_MS,
} from "../../runtime/approvals/index.js";
import { DEFAULT_CELL_TIMEOUT_MS } from "../../runtime/code-mode/index.js";
import {
  type ConfigKeyNote,
  DEFAULT_AGENT_MODEL,
  DEFAULT_HARNESS,
  DEFAULT_MAX_TURNS,
  DEFAULT_RUN_TIMEOUT_MS,
  renderConfigReference,
  STATE_URL_VARIABLE,
  WORKSPACE_FOLDER,
} from "../../runtime/config/index.js";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS } from "../../runtime/mcp-client/index.js";
import { DEFAULT_PROFILE } from "../../runtime/policy/index.js";
import {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL,
} from "../../runtime/providers/index.js";
import { DEFAULT_CONTEXT_WINDOW_TOKENS } from "../../runtime/runner/index.js";
import {
  DEFAULT_GATEWAY_HOST,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_HOSTED_TOOLS_SETTING,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_QUEUED_PER_SESSION,
} from "../gateway/index.js";
import { HTTP_SESSION_IDLE_MS, MAX_HTTP_SESSIONS, MAX_MCP_SESSION_LOG_BYTES } from "../mcp-server/index.js";

/** The same settings under `agents.defaults`, `agents.list[]` and `agents.list[].sandbox`. */
const TOOL_POLICY_EXAMPLES: Record<string, ConfigKeyNote> = {
  profile: { default: DEFAULT_PROFILE, example: "coding" },
  allow: { example: ["group:fs", "mcp:github"] },
  alsoAllow: { example: ["exec"] },
  deny: { example: ["write"] },
};

/** An agent's own settings: each one falls back to the same key under `agents.defaults`. */
const AGENT_ENTRY_EXAMPLES: Record<string, unknown> = {
  model: "ollama/qwen3:8b",
  harness: "embedded",
  workspace: "~/projects/support",
  contextWindowTokens: 32000,
  instructions: "You answer support tickets.",
  maxTurns: 12,
  runTimeoutMs: 300000,
  "experimental.localModelLean": true,
};

/**
 * The default (from the constant the code applies, where one exists) and an example of every config key
 * docs/config.md lists; `config-reference.test.ts` checks every leaf key has an example and every entry
 * names a key of the schema.
 */
export const CONFIG_KEY_NOTES: Readonly<Record<string, ConfigKeyNote>> = {
  "models.providers.<id>.api": { example: "openai-chat" },
  "models.providers.<id>.baseUrl": {
    default: `${OPENAI_BASE_URL} (${ANTHROPIC_BASE_URL} for anthropic-messages)`,
    example: "http://127.0.0.1:11434/v1",
  },
  "models.providers.<id>.apiKey": {
    default: `${OPENAI_API_KEY_ENV} / ${ANTHROPIC_API_KEY_ENV} for the real APIs`,
    example: "env:OPENROUTER_API_KEY",
  },
  "models.providers.<id>.localService": {
    default:
      "local when the baseUrl host is loopback, private or a local name (Ollama, LM Studio, llama.cpp always)",
    example: true,
  },
  "models.providers.<id>.timeoutMs": { default: String(DEFAULT_TIMEOUT_MS), example: 300000 },
  "models.providers.<id>.maxRetries": { default: String(DEFAULT_MAX_RETRIES), example: 4 },
  "models.providers.<id>.headers": { example: { "HTTP-Referer": "https://example.com" } },
  "agents.defaults.model": { default: DEFAULT_AGENT_MODEL, example: "anthropic/claude-sonnet-4-5" },
  "agents.defaults.harness": { default: DEFAULT_HARNESS, example: "codex" },
  "agents.defaults.workspace": {
    default: `$TOOLSIFT_STATE_DIR/${WORKSPACE_FOLDER}/<agent id>`,
    example: "~/projects/app",
  },
  "agents.defaults.contextWindowTokens": {
    default: String(DEFAULT_CONTEXT_WINDOW_TOKENS),
    example: 200000,
  },
  "agents.defaults.instructions": {
    default: "the built-in instructions (DEFAULT_AGENT_INSTRUCTIONS)",
    example: "You are a careful assistant. Search for tools before you answer.",
  },
  "agents.defaults.maxTurns": { default: String(DEFAULT_MAX_TURNS), example: 40 },
  "agents.defaults.runTimeoutMs": { default: String(DEFAULT_RUN_TIMEOUT_MS), example: 1200000 },
  "agents.defaults.experimental.localModelLean": { example: true },
  "agents.list[].id": { example: "support" },
  ...Object.fromEntries(
    Object.entries(AGENT_ENTRY_EXAMPLES).map(([key, example]) => [
      `agents.list[].${key}`,
      { default: `agents.defaults.${key}`, example },
    ]),
  ),
  ...policyNotes("agents.list[].tools"),
  ...policyNotes("agents.list[].sandbox.tools"),
  ...policyNotes("tools"),
  "tools.toolSearch": {
    default: "automatic (on, tools mode; see the README's Tool Search section)",
    example: { mode: "directory", searchDefaultLimit: 5 },
  },
  "tools.approval.require": { default: DEFAULT_APPROVAL_REQUIRE.join(", "), example: ["exec", "write"] },
  "tools.approval.mode": { default: DEFAULT_APPROVAL_MODE, example: "deny" },
  "tools.approval.timeoutMs": { default: String(DEFAULT_APPROVAL_TIMEOUT_MS), example: 300000 },
  "tools.catalogCacheSize": { default: String(DEFAULT_CATALOG_CACHE_SIZE), example: 64 },
  "plugins.load.paths": { example: ["./plugins"] },
  "plugins.allow": { example: ["weather"] },
  "plugins.entries.<id>.config": { example: { units: "metric" } },
  "mcp.servers.<id>.command": { example: "npx" },
  "mcp.servers.<id>.args": { example: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"] },
  "mcp.servers.<id>.env": { example: { GITHUB_TOKEN: "env:GITHUB_TOKEN" } },
  "mcp.servers.<id>.cwd": { default: "the config file's folder", example: "/srv/tools" },
  "mcp.servers.<id>.url": { example: "https://mcp.example.com/mcp" },
  "mcp.servers.<id>.headers": { example: { Authorization: "env:MCP_AUTHORIZATION" } },
  "mcp.servers.<id>.timeoutMs": { default: String(DEFAULT_CALL_TIMEOUT_MS), example: 120000 },
  "mcp.servers.<id>.startTimeoutMs": { default: String(DEFAULT_START_TIMEOUT_MS), example: 5000 },
  "mcp.servers.<id>.alwaysVisible": { example: ["search_issues"] },
  "mcp.serve.maxSessions": { default: String(MAX_HTTP_SESSIONS), example: 256 },
  "mcp.serve.sessionIdleMs": { default: String(HTTP_SESSION_IDLE_MS), example: 600000 },
  "mcp.serve.maxSessionLogBytes": { default: String(MAX_MCP_SESSION_LOG_BYTES), example: 1048576 },
  "codeMode.enabled": { default: "false", example: true },
  "codeMode.timeoutMs": { default: String(DEFAULT_CELL_TIMEOUT_MS), example: 30000 },
  "sessions.retention.maxAgeDays": { example: 30 },
  "sessions.retention.maxTotalBytes": { example: 1073741824 },
  "telemetry.otlp.endpoint": {
    default: "OTEL_EXPORTER_OTLP_ENDPOINT",
    example: "http://127.0.0.1:4318",
  },
  "telemetry.otlp.headers": { example: { Authorization: "env:OTLP_AUTHORIZATION" } },
  "telemetry.captureToolContent": { default: "false", example: true },
  "gateway.bind": { default: DEFAULT_GATEWAY_HOST, example: "0.0.0.0" },
  "gateway.port": { default: String(DEFAULT_GATEWAY_PORT), example: 8080 },
  "gateway.auth.token": { example: "env:TOOLSIFT_GATEWAY_TOKEN" },
  "gateway.auth.keys[].id": { example: "ci" },
  "gateway.auth.keys[].token": { example: "env:TOOLSIFT_CI_KEY" },
  "gateway.auth.keys[].scopes": { example: ["runs", "sessions:read"] },
  "gateway.auth.keys[].agents": { default: "every agent", example: ["support"] },
  "gateway.maxBodyBytes": { default: String(DEFAULT_MAX_BODY_BYTES), example: 4194304 },
  "gateway.maxQueuedPerSession": { default: String(DEFAULT_MAX_QUEUED_PER_SESSION), example: 0 },
  "gateway.hostedTools": { default: DEFAULT_HOSTED_TOOLS_SETTING, example: "reject" },
  "gateway.console": { default: "true", example: false },
  "gateway.cors.allowOrigins": { example: ["http://localhost:5173"] },
  "gateway.allowedHosts": { example: ["toolsift.internal.example.com"] },
  "gateway.trustedProxies": {
    default: "none: the TCP peer is the client, X-Forwarded-For is ignored (see docs/fleet.md)",
    example: ["127.0.0.1", "10.0.0.0/8"],
  },
  "state.url": {
    default: `${STATE_URL_VARIABLE}, else files under TOOLSIFT_STATE_DIR (a postgresql:// URL; see docs/fleet.md)`,
    example: "env:TOOLSIFT_STATE_URL",
  },
};

function policyNotes(prefix: string): Record<string, ConfigKeyNote> {
  return Object.fromEntries(
    Object.entries(TOOL_POLICY_EXAMPLES).map(([key, note]) => [`${prefix}.${key}`, note]),
  );
}

/** docs/config.md's text (`npm run docs:config` writes it). */
export function renderConfigDocs(): string {
  return renderConfigReference(CONFIG_KEY_NOTES);
}
