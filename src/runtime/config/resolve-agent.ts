import path from "node:path";
import type { Harness } from "../../core/tool-search/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { cutText, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";
import type { ProviderSettings } from "../providers/index.js";
import type { AgentEntry, AgentSettings, ToolPolicySettings, ToolsiftConfig } from "./config-file-types.js";
import { isPlainRecord } from "./config-path.js";
import { DEFAULT_AGENT_INSTRUCTIONS } from "./default-agent-instructions.js";
import { DEFAULT_MAX_TURNS, DEFAULT_RUN_TIMEOUT_MS } from "./limits.js";
import { expandHome } from "./resolve-config-paths.js";
import { CONFIG_ID_PATTERN, isModelReference } from "./schema-fields.js";

/** Folder under the state directory holding default agent workspaces. */
/** The folder under the state directory that holds each agent's default workspace (`workspace/<agent id>`). */
export const WORKSPACE_FOLDER = "workspace";
/** The harness an agent runs under when neither its entry nor `agents.defaults` names one. */
export const DEFAULT_HARNESS = "embedded";

/** The agent that always exists, with or without an `agents.list` entry. */
export const MAIN_AGENT_ID = "main";

/** Provider assumed for a model string without `provider/`. */
export const DEFAULT_MODEL_PROVIDER = "openai";

/** Model used when neither the agent nor `agents.defaults` names one. */
export const DEFAULT_AGENT_MODEL = "openai/gpt-5.4-mini";

/** An agent as a run uses it: its `agents.list` entry over `agents.defaults` over the built-in defaults. */
export interface ResolvedAgent {
  id: string;
  /** The model: provider id, model id at the provider, and the provider's settings when known. */
  model: { provider: string; id: string; settings?: ProviderSettings };
  harness: Harness;
  /** Absolute path of the directory core tools work in. */
  workspace: string;
  contextWindowTokens?: number;
  instructions: string;
  maxTurns: number;
  runTimeoutMs: number;
  /** The agent's own tool policy (`agents.list[].tools`); it narrows the global one. */
  tools?: ToolPolicySettings;
  sandbox?: { tools?: ToolPolicySettings };
  /** `agents.*.experimental.localModelLean`, when set. */
  localModelLean?: boolean;
}

/** Inputs of {@link resolveAgent}. */
export interface ResolveAgentOptions {
  /** The state directory; the default workspace is `<stateDir>/workspace/<agentId>`. */
  stateDir: string;
  /** Environment for `OPENAI_API_KEY` and `~` in workspaces. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Directory relative workspaces resolve against, normally the config file's. Default: the working directory. */
  configDir?: string;
}

/** The environment variables resolveAgent reads (and no others): the OpenAI key and the home directory. */
export const AGENT_ENVIRONMENT_VARIABLES = ["OPENAI_API_KEY", "HOME", "USERPROFILE"] as const;

/**
 * What resolveAgent reads from `env`, as one key: the same config and agent id resolve the same agent while
 * the key stays the same, so a caller may keep the resolved agent under it.
 */
export function agentEnvironmentKey(env: NodeJS.ProcessEnv): string {
  return AGENT_ENVIRONMENT_VARIABLES.map((name) => env[name] ?? "").join("\u0000");
}

/**
 * Resolves one agent from a loaded config. `main` always exists; any other id must be in `agents.list`, else
 * CONFIG_INVALID. A model without `provider/` is an OpenAI model; OpenAI works unconfigured with
 * `OPENAI_API_KEY`. Pure apart from reading `env`.
 */
export function resolveAgent(
  config: ToolsiftConfig,
  agentId: string,
  options: ResolveAgentOptions,
): ResolvedAgent {
  const env = options.env ?? process.env;
  const entry = findAgent(config, agentId);
  const defaults = config.agents?.defaults ?? {};
  const pick = <Key extends keyof AgentSettings>(key: Key): AgentSettings[Key] | undefined =>
    entry?.[key] ?? defaults[key];

  const modelText = pick("model") ?? DEFAULT_AGENT_MODEL;
  if (!isModelReference(modelText)) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `Agent "${agentId}" has model ${JSON.stringify(cutText(modelText, LONGEST_SHOWN_VALUE))}: expected ` +
        '"provider/model", e.g. "openai/gpt-5.4-mini". Fix it in agents.list or agents.defaults.',
    );
  }
  const slash = modelText.indexOf("/");
  const provider = slash === -1 ? DEFAULT_MODEL_PROVIDER : modelText.slice(0, slash);
  const modelId = slash === -1 ? modelText : modelText.slice(slash + 1);
  const settings = providerSettings(config, provider, env);

  const userHome = env.HOME || env.USERPROFILE || "";
  const workspaceText = pick("workspace");
  const workspace =
    workspaceText === undefined
      ? path.join(options.stateDir, WORKSPACE_FOLDER, agentId)
      : path.resolve(
          options.configDir ?? process.cwd(),
          userHome === "" ? workspaceText : expandHome(workspaceText, userHome),
        );

  const contextWindowTokens = pick("contextWindowTokens");
  const localModelLean = entry?.experimental?.localModelLean ?? defaults.experimental?.localModelLean;
  return {
    id: agentId,
    model: { provider, id: modelId, ...(settings === undefined ? {} : { settings }) },
    harness: pick("harness") ?? DEFAULT_HARNESS,
    workspace,
    ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }),
    instructions: pick("instructions") ?? DEFAULT_AGENT_INSTRUCTIONS,
    maxTurns: pick("maxTurns") ?? DEFAULT_MAX_TURNS,
    runTimeoutMs: pick("runTimeoutMs") ?? DEFAULT_RUN_TIMEOUT_MS,
    ...(entry?.tools === undefined ? {} : { tools: entry.tools }),
    ...(entry?.sandbox === undefined ? {} : { sandbox: entry.sandbox }),
    ...(localModelLean === undefined ? {} : { localModelLean }),
  };
}

/** The agent ids a config defines: `main` first, then `agents.list` in order. */
export function listAgentIds(config: ToolsiftConfig): string[] {
  const ids = [MAIN_AGENT_ID];
  for (const entry of config.agents?.list ?? []) if (!ids.includes(entry.id)) ids.push(entry.id);
  return ids;
}

function findAgent(config: ToolsiftConfig, agentId: string): AgentEntry | undefined {
  const entry = CONFIG_ID_PATTERN.test(agentId)
    ? config.agents?.list?.find((candidate) => candidate.id === agentId)
    : undefined;
  if (entry === undefined && agentId !== MAIN_AGENT_ID) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `Unknown agent ${JSON.stringify(cutText(agentId, LONGEST_SHOWN_VALUE))}: add it to agents.list or use "main".`,
    );
  }
  return entry;
}

function providerSettings(
  config: ToolsiftConfig,
  provider: string,
  env: NodeJS.ProcessEnv,
): ProviderSettings | undefined {
  const providers = config.models?.providers;
  const configured =
    isPlainRecord(providers) && Object.hasOwn(providers, provider) ? providers[provider] : undefined;
  if (provider !== DEFAULT_MODEL_PROVIDER) return configured;
  const apiKey = env.OPENAI_API_KEY;
  const fallback = apiKey === undefined || apiKey === "" ? {} : { apiKey };
  if (configured === undefined) return { api: "openai-responses", ...fallback };
  return configured.apiKey === undefined ? { ...configured, ...fallback } : configured;
}
