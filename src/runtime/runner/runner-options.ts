import type { ToolDefinition } from "../../core/catalog/index.js";
import type { RunEnvironment, RunSurfaceEnvironment } from "../environment/index.js";
import type { Provider, ProviderSettings } from "../providers/index.js";

/**
 * The parts of the run environment a runner reads. The upstream MCP servers reach it as `extraTools`; without
 * an approval broker every call is approved.
 */
export type RunnerEnvironment = Omit<RunEnvironment, "approvals" | "mcp" | "state"> &
  Pick<RunSurfaceEnvironment, "approvals">;

/** What a runner is made from: the process's run environment, and how runs get their tools and providers. */
export interface RunnerOptions {
  /** What every run shares (createRunEnvironment): config, settings read once, plugins, approvals, stores, log. */
  environment: RunnerEnvironment;
  /** Give runs the core tools read/write/edit/exec in the agent's workspace. Default true. */
  coreTools?: boolean;
  /** Further tools for every run (MCP tools). Default none. */
  extraTools?: () => Promise<readonly ToolDefinition[]> | readonly ToolDefinition[];
  /**
   * The version of what `extraTools` returns now, read right after it (an MCP tool source's `version()`):
   * equal versions mean the very same definitions, so runs find what was derived from them by it. Default:
   * none (they are found by the definitions' identity).
   */
  extraToolsVersion?: () => string | number;
  /** Provider factory; default: the OpenAI client for `openai-responses` / `openai-chat`, Anthropic's for `anthropic-messages`. */
  createProvider?: (id: string, settings: ProviderSettings) => Provider;
}
