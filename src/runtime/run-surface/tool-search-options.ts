import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ExecutionHooks } from "../../core/execution/index.js";
import type {
  ModelReference,
  ToolSearchCaches,
  ToolSearchHostOptions,
  ToolSearchOptions,
} from "../../core/tool-search/index.js";
import type { ResolvedAgent } from "../config/index.js";

/** What a front door knows when it opens Tool Search for a run. */
export interface RunToolSearchInput {
  tools: readonly ToolDefinition[];
  /** `tools.toolSearch`: the settings loadConfig read, or a raw value. */
  settings: unknown;
  /** The run's agent: its harness, model (local-model limits) and context window. Default: the embedded harness. */
  agent?: ResolvedAgent;
  /** Scales the directory budget when there is no agent (`mcp serve`). */
  contextWindowTokens?: number;
  hooks?: ExecutionHooks;
  /** The caches shared with the host's other runs. Default: the library's own. */
  caches?: ToolSearchCaches;
  /** The version of `tools` (see ToolSearchHostOptions.toolsVersion). Default: none. */
  toolsVersion?: string;
}

/** The `createToolSearch` options of one run, built the same way by every front door. */
export function toolSearchOptionsFor(input: RunToolSearchInput): ToolSearchHostOptions {
  const { agent } = input;
  const contextWindowTokens = agent ? agent.contextWindowTokens : input.contextWindowTokens;
  return {
    tools: input.tools,
    // A raw value here comes from a config file the schema already checked; createToolSearch checks it again.
    config: input.settings as ToolSearchOptions["config"],
    harness: agent?.harness ?? "embedded",
    ...(agent ? { model: toolSearchModel(agent) } : {}),
    ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }),
    ...(input.hooks ? { hooks: input.hooks } : {}),
    ...(input.caches ? { caches: input.caches } : {}),
    ...(input.toolsVersion === undefined ? {} : { toolsVersion: input.toolsVersion }),
  };
}

/** The model as Tool Search sees it (local-model limits read the provider's settings). */
export function toolSearchModel(agent: ResolvedAgent): ModelReference {
  const settings = agent.model.settings;
  return {
    provider: agent.model.provider,
    id: agent.model.id,
    ...(settings?.baseUrl ? { baseUrl: settings.baseUrl } : {}),
    ...(settings?.localService === undefined ? {} : { localService: settings.localService }),
    ...(settings?.api ? { api: settings.api } : {}),
  };
}
