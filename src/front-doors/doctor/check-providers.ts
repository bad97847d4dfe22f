import {
  DEFAULT_AGENT_MODEL,
  DEFAULT_MODEL_PROVIDER,
  formatConfigPath,
  isPlainRecord,
  readConfigPath,
} from "../../runtime/config/index.js";
import {
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL,
  type ProviderSettings,
  providerKeyProblem,
  providerSdkProblem,
} from "../../runtime/providers/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import type { DoctorCheck } from "./types.js";

/** How a provider used only by the unconfigured built-in agent is named. */
const BUILT_IN_AGENT = `the built-in agent main with ${DEFAULT_AGENT_MODEL}`;
const BUILT_IN_ONLY_NOTE =
  "no agent is configured: only toolsift gateway's default agent would use it; toolsift mcp serve needs no provider key";

/**
 * One finding per provider: each one in `models.providers`, plus OpenAI when an agent uses it unconfigured;
 * and one more for a provider an agent uses whose client package (`openai`, `@anthropic-ai/sdk`) is not
 * installed, with the command that installs it as its fix.
 * Only the keys of providers an agent uses are checked: a provider an agent uses that cannot send a request
 * (no key for the OpenAI API, bad settings, not configured at all) is an error; a provider no agent uses is
 * listed as not checked (a config for `mcp serve` alone needs no key). With no agent configured, the gateway's
 * built-in agent still uses the default model: its provider's problems are warnings, since `mcp serve` does
 * not need them. `config` has `env:NAME` values resolved; `envWarnings` are resolveEnvReferences' warnings, so
 * an unset variable is named.
 */
export function checkProviders(
  config: unknown,
  env: NodeJS.ProcessEnv,
  envWarnings: readonly string[],
): DoctorCheck[] {
  const configured = readConfigPath(config, ["models", "providers"]).value;
  const providers = isPlainRecord(configured) ? configured : {};
  const usedBy = providerUsers(config);
  const ids = [
    ...Object.keys(providers),
    ...[...usedBy.keys()].filter((id) => !Object.hasOwn(providers, id)),
  ];

  return ids.flatMap((id): DoctorCheck[] => {
    const users = usedBy.get(id) ?? [];
    const builtInOnly = users.length > 0 && users.every((user) => user === BUILT_IN_AGENT);
    const settings = Object.hasOwn(providers, id)
      ? providers[id]
      : id === DEFAULT_MODEL_PROVIDER
        ? { api: "openai-responses" }
        : undefined;
    const key = formatConfigPath(["models", "providers", id]);
    if (settings === undefined) {
      return [
        {
          name: "providers",
          status: "error",
          message: `${id}: used by ${users.join(", ")}, but ${key} is not configured`,
          fix: `add ${key} with api and baseUrl, or use a configured provider`,
        },
      ];
    }
    if (users.length === 0) {
      return [
        {
          name: "providers",
          status: "ok",
          message: `${id}: not used by any agent; its key is not checked`,
        },
      ];
    }
    const status = builtInOnly ? "warn" : "error";
    const details = envWarnings.filter((warning) => warning.startsWith(`${key}.`));
    if (builtInOnly) details.push(BUILT_IN_ONLY_NOTE);
    let problem: string | undefined;
    // A client package that is not installed is its own finding, beside the key's.
    let sdkProblem: ReturnType<typeof providerSdkProblem>;
    try {
      if (!isPlainRecord(settings)) throw new Error(`${key} is not an object`);
      problem = providerKeyProblem(id, settings as unknown as ProviderSettings, env);
      sdkProblem = providerSdkProblem(id, (settings as unknown as ProviderSettings).api);
    } catch (error) {
      problem = isToolsiftError(error) || error instanceof Error ? error.message : String(error);
    }
    const sdk: DoctorCheck[] =
      sdkProblem === undefined
        ? []
        : [{ name: "providers", status, message: sdkProblem.problem, fix: sdkProblem.command }];
    if (problem !== undefined) {
      return [
        ...sdk,
        { name: "providers", status, message: problem, ...(details.length > 0 ? { details } : {}) },
      ];
    }
    const use = `used by ${users.join(", ")}`;
    return [
      ...sdk,
      {
        name: "providers",
        status: "ok",
        message: `${id}: ${describeKey(settings as unknown as ProviderSettings)} (${use})`,
      },
    ];
  });
}

/**
 * Provider id → the config keys whose model uses it (`agents.defaults.model`, `agents.list[2].model`). With no
 * `agents` section at all, the default model is used by the built-in agent only (BUILT_IN_AGENT).
 */
function providerUsers(config: unknown): Map<string, string[]> {
  const users = new Map<string, string[]>();
  const add = (model: unknown, where: string) => {
    if (typeof model !== "string" || model.length === 0) return;
    const slash = model.indexOf("/");
    const provider = slash === -1 ? DEFAULT_MODEL_PROVIDER : model.slice(0, slash);
    users.set(provider, [...(users.get(provider) ?? []), where]);
  };
  const defaults = readConfigPath(config, ["agents", "defaults", "model"]);
  if (defaults.found) add(defaults.value, "agents.defaults.model");
  else
    add(DEFAULT_AGENT_MODEL, readConfigPath(config, ["agents"]).found ? "the default model" : BUILT_IN_AGENT);
  const list = readConfigPath(config, ["agents", "list"]).value;
  if (Array.isArray(list)) {
    list.forEach((_, index) => {
      const segments = ["agents", "list", index, "model"];
      add(readConfigPath(config, segments).value, formatConfigPath(segments));
    });
  }
  return users;
}

function describeKey(settings: ProviderSettings): string {
  if (typeof settings.apiKey === "string" && settings.apiKey.trim() !== "") return "API key set";
  const baseUrl = settings.baseUrl ?? OPENAI_BASE_URL;
  if (hostOf(baseUrl) === hostOf(OPENAI_BASE_URL)) return `API key from ${OPENAI_API_KEY_ENV}`;
  return `no API key configured; requests to ${baseUrl} are sent without one`;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
