import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ExecutionHooks } from "../../core/execution/index.js";
import type {
  ToolSearchCaches,
  ToolSearchHostOptions,
  ToolSearchSettings,
} from "../../core/tool-search/index.js";
import type { RunProfile } from "../environment/index.js";

/** What decides the Tool Search of one run. */
export interface RunToolSearchInput {
  tools: readonly ToolDefinition[];
  /** `tools.toolSearch` as the run environment read it. */
  settings: ToolSearchSettings;
  /** Who runs: the harness, the model (local-model limits) and the context window (directory budget). */
  profile: RunProfile;
  hooks?: ExecutionHooks;
  /** The caches shared with the host's other runs. Default: the library's own. */
  caches?: ToolSearchCaches;
  /** The version of `tools` (see ToolSearchHostOptions.toolsVersion). Default: none. */
  toolsVersion?: string;
}

/** The `createToolSearch` options of one run, built the same way by every front door. */
export function toolSearchOptionsFor(input: RunToolSearchInput): ToolSearchHostOptions {
  const { profile } = input;
  return {
    tools: input.tools,
    settings: input.settings,
    harness: profile.harness,
    ...(profile.model ? { model: profile.model } : {}),
    ...(profile.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: profile.contextWindowTokens }),
    ...(input.hooks ? { hooks: input.hooks } : {}),
    ...(input.caches ? { caches: input.caches } : {}),
    ...(input.toolsVersion === undefined ? {} : { toolsVersion: input.toolsVersion }),
  };
}
