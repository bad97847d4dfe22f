import { type ToolDefinition, toCatalogEntry } from "../../core/catalog/index.js";
import type { ExecutionHooks } from "../../core/execution/index.js";
import { createHostToolSearch, type ToolSearch } from "../../core/tool-search/index.js";
import { type CodeModeSurface, prepareCodeModeSurface } from "../code-mode/index.js";
import { libraryRuntimeCaches, type RunSurfaceEnvironment } from "../environment/index.js";
import { runBeforePromptHooks } from "../plugins/index.js";
import { toolSearchOptionsFor } from "./tool-search-options.js";
import type { RunSurfaceRun } from "./types.js";

/** The Tool Search of one run, and Code Mode over it when the run asked for Code Mode and it started. */
export interface OpenedToolSearch {
  search: ToolSearch;
  codeMode?: CodeModeSurface;
}

/**
 * Opens Tool Search (or Code Mode over it) over the admitted tools with the environment's settings and the
 * run's hooks, adds the client's tools and lets `before_prompt` hooks narrow it; closes what it opened when
 * any of that throws.
 */
export async function openToolSearch(options: {
  environment: RunSurfaceEnvironment;
  run: RunSurfaceRun;
  /** The run's tools and client tools the policy admitted, and the version of the admitted tools. */
  admitted: { tools: readonly ToolDefinition[]; clientTools: readonly ToolDefinition[]; version?: string };
  hooks: ExecutionHooks;
}): Promise<OpenedToolSearch> {
  const { environment, run, admitted, hooks } = options;
  const { log } = environment;
  const searchOptions = toolSearchOptionsFor({
    tools: admitted.tools,
    settings: environment.toolSearch,
    profile: run.profile,
    hooks,
    caches: environment.caches ?? libraryRuntimeCaches(),
    ...(admitted.version === undefined ? {} : { toolsVersion: admitted.version }),
  });
  const contextWindowTokens = run.profile.contextWindowTokens;
  const codeMode = run.codeMode
    ? await prepareCodeModeSurface({
        toolSearch: searchOptions,
        codeMode: {
          ...(run.codeMode.timeoutMs === undefined ? {} : { timeoutMs: run.codeMode.timeoutMs }),
          ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }),
        },
        ...(log ? { log } : {}),
        ...(run.codeMode.declareOnly === true ? { declareOnly: true } : {}),
      })
    : undefined;
  const search = codeMode?.toolSearch ?? createHostToolSearch(searchOptions);
  try {
    search.addClientTools(admitted.clientTools);
    await narrowBeforePrompt(search, {
      environment,
      run,
      tools: [...admitted.tools, ...admitted.clientTools],
    });
  } catch (error) {
    search.close();
    void codeMode?.close();
    throw error;
  }
  return codeMode ? { search, codeMode } : { search };
}

/** Lets the plugins' `before_prompt` hooks narrow the catalog for this turn (never widen it). */
async function narrowBeforePrompt(
  search: ToolSearch,
  turn: { environment: RunSurfaceEnvironment; run: RunSurfaceRun; tools: readonly ToolDefinition[] },
): Promise<void> {
  const { environment, run, tools } = turn;
  const hooks = environment.plugins?.hooks.beforePrompt ?? [];
  if (run.promptText === undefined || hooks.length === 0) return;
  const allow = await runBeforePromptHooks(
    hooks,
    {
      agentId: run.profile.id,
      sessionKey: run.sessionKey,
      input: run.promptText,
      tools: tools.flatMap((tool) => {
        const entry = toCatalogEntry(tool);
        return entry ? [{ id: entry.id, name: entry.name }] : [];
      }),
    },
    {
      onHookError: ({ pluginId, message }) =>
        environment.log?.(`plugin ${pluginId} before_prompt failed: ${message}`),
    },
  );
  if (allow) search.restrict(allow);
}
