import { CONTROL_NAMES, type ToolDefinition, toCatalogEntry } from "../catalog/index.js";
import { prepareCodeModeSurface } from "../code-mode/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { SearchCandidate, Telemetry } from "../controls/index.js";
import { runBeforePromptHooks } from "../plugins/index.js";
import type { ProviderTool } from "../providers/index.js";
import { createRunHooks, type TargetActivity, toolSearchOptionsFor } from "../run-surface/index.js";
import { createToolSearch, modelToolEntry, type ToolSearch } from "../tool-search/index.js";
import { admittedTools } from "./admitted-tools.js";
import type { RunnerOptions } from "./runner-options.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { throughExecutor } from "./through-executor.js";
import type { RunRequest } from "./types.js";

/** The surface of one run: what the provider sees and how calls reach tools. */
export interface PreparedRun {
  systemPrompt: string;
  modelTools: ToolDefinition[];
  providerTools: ProviderTool[];
  toolSearchEnabled: boolean;
  /** For directory mode: the tool behind an exact, unique hidden name. */
  resolveHiddenName(name: string): ToolDefinition | undefined;
  /** Log attribution of a provider-level call name: catalog id and source when it names a catalog tool. */
  describeCall(name: string): { toolId?: string; source?: SearchCandidate["source"] };
  telemetry(): Telemetry;
  close(): void;
}

/**
 * Gathers the run's tools, builds its own catalog (never shared with another run), applies the
 * `before_prompt` allow list, and renders the system prompt and the declared tools.
 */
export async function prepareRun(
  options: RunnerOptions,
  agent: ResolvedAgent,
  request: RunRequest,
  requestClientTools: readonly ToolDefinition[],
  onTargetActivity: (activity: TargetActivity) => void,
): Promise<PreparedRun> {
  const plugins = options.plugins;
  const admitted = await admittedTools(options, agent);
  const tools = admitted.tools;
  const clientTools = admitted.admit(requestClientTools);
  const hooks = createRunHooks({
    agentId: agent.id,
    sessionKey: request.sessionKey,
    policy: admitted.layers,
    ...(plugins ? { plugins } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
    isTargetCall: (activity) => activity.surface === "control" && Boolean(activity.toolCallId),
    onTargetActivity,
    ...(options.log ? { log: options.log } : {}),
  });
  const toolSearchOptions = toolSearchOptionsFor({
    tools,
    settings: options.config.tools?.toolSearch,
    agent,
    hooks,
  });
  // Code Mode replaces the controls (never both); if its sandbox cannot start, the run falls back to tools mode.
  const codeMode =
    options.config.codeMode?.enabled === true && agent.harness !== "codex"
      ? await prepareCodeModeSurface({
          toolSearch: toolSearchOptions,
          codeMode: {
            ...(options.config.codeMode.timeoutMs === undefined
              ? {}
              : { timeoutMs: options.config.codeMode.timeoutMs }),
            ...(agent.contextWindowTokens === undefined
              ? {}
              : { contextWindowTokens: agent.contextWindowTokens }),
          },
          ...(options.log ? { log: options.log } : {}),
        })
      : undefined;
  const search = codeMode?.toolSearch ?? createToolSearch(toolSearchOptions);
  search.addClientTools(clientTools);

  const userText = request.input
    .map((item) => (item.type === "message" && item.role === "user" ? item.text : ""))
    .filter(Boolean)
    .join("\n");
  const allow = await runBeforePromptHooks(
    plugins?.hooks.beforePrompt ?? [],
    {
      agentId: agent.id,
      sessionKey: request.sessionKey,
      input: userText,
      tools: [...tools, ...clientTools].flatMap((tool) => {
        const entry = toCatalogEntry(tool);
        return entry ? [{ id: entry.id, name: entry.name }] : [];
      }),
    },
    {
      onHookError: ({ pluginId, message }) =>
        options.log?.(`plugin ${pluginId} before_prompt failed: ${message}`),
    },
  );
  if (allow) search.restrict(allow);

  // With Tool Search off the tools come back as they are: their calls still go through an executor.
  const executed = search.enabled || codeMode ? undefined : throughExecutor(search.modelTools(), hooks);
  const modelTools = codeMode?.modelTools() ?? executed?.tools ?? search.modelTools();
  const ids = new Map<string, { toolId: string; source: SearchCandidate["source"] }>();
  for (const tool of modelTools) {
    const entry = executed?.entries.get(tool.name) ?? modelToolEntry(tool) ?? toCatalogEntry(tool);
    if (entry && !CONTROL_NAMES.has(entry.name))
      ids.set(tool.name, { toolId: entry.id, source: entry.source });
  }
  return {
    systemPrompt: buildSystemPrompt({
      baseInstructions: agent.instructions,
      directory: search.directory(),
      clientInstructions: request.instructions,
    }),
    modelTools,
    providerTools: modelTools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      parameters: tool.parameters ?? { type: "object", properties: {} },
    })),
    toolSearchEnabled: search.enabled,
    resolveHiddenName: (name) => search.resolveDirectoryName(name),
    describeCall: (name) => ids.get(name) ?? hiddenAttribution(search, name),
    telemetry: () => search.telemetry(),
    close: () => {
      executed?.close();
      search.close();
      void codeMode?.close();
    },
  };
}

/** Attribution of a directory-mode call by an exact hidden name, so the log names the tool it reached. */
function hiddenAttribution(
  search: ToolSearch,
  name: string,
): { toolId?: string; source?: SearchCandidate["source"] } {
  const tool = search.resolveDirectoryName(name);
  const entry = tool ? toCatalogEntry(tool) : undefined;
  return entry ? { toolId: entry.id, source: entry.source } : {};
}
