import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ApprovalRecord } from "../approvals/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { agentProfile } from "../environment/index.js";
import type { ProviderTool } from "../providers/index.js";
import {
  openRunSurface,
  type RunEventSink,
  type RunSurface,
  type TargetActivity,
} from "../run-surface/index.js";
import { codeModeFor } from "./code-mode-for.js";
import { gatheredTools } from "./gathered-tools.js";
import type { RunnerOptions } from "./runner-options.js";
import { buildSystemPrompt } from "./system-prompt.js";
import type { RunRequest } from "./types.js";

/** The surface of one gateway run: what the provider sees, and the run surface its calls go through. */
export interface PreparedRun {
  systemPrompt: string;
  providerTools: ProviderTool[];
  surface: RunSurface;
}

/**
 * Opens the run surface of one run over the agent's tool sources (its own Tool Search instance, over the
 * catalog shared by runs with the same tools), and renders the system prompt and the provider's tool
 * declarations from it.
 */
export async function prepareRun(
  options: RunnerOptions,
  agent: ResolvedAgent,
  request: RunRequest,
  clientTools: readonly ToolDefinition[],
  sinks: {
    onTargetActivity(activity: TargetActivity): void;
    onApproval?(record: ApprovalRecord & { callId?: string }): void;
    onEvent?: RunEventSink;
    /**
     * Open the surface without the plugins' hooks (`before_prompt` is not run), and Code Mode without its
     * sandbox (declared only): for a look without a run.
     */
    withoutHooks?: boolean;
  },
): Promise<PreparedRun> {
  const { environment } = options;
  const codeMode = codeModeFor(environment.config, agent);
  const gathered = await gatheredTools(options, agent);
  // A look without a run opens the surface without the plugins (their `before_prompt` hooks do not run).
  const { plugins: _plugins, ...withoutPlugins } = environment;
  const surface = await openRunSurface(sinks.withoutHooks === true ? withoutPlugins : environment, {
    profile: agentProfile(environment.config, agent),
    sessionKey: request.sessionKey,
    ...(request.keyId === undefined ? {} : { keyId: request.keyId }),
    tools: gathered.tools,
    ...(gathered.version === undefined ? {} : { toolsVersion: gathered.version }),
    clientTools,
    // Code Mode replaces the controls (never both); the codex harness keeps its own.
    ...(codeMode === undefined
      ? {}
      : { codeMode: sinks.withoutHooks === true ? { ...codeMode, declareOnly: true } : codeMode }),
    promptText: userText(request),
    onTargetActivity: sinks.onTargetActivity,
    ...(sinks.onApproval ? { onApproval: sinks.onApproval } : {}),
    ...(sinks.onEvent ? { onEvent: sinks.onEvent } : {}),
    unknownToolText: (name, toolSearchEnabled) =>
      toolSearchEnabled
        ? `Unknown tool "${name.slice(0, 200)}". Deferred tools are reached through tool_search, then tool_call.`
        : `Unknown tool "${name.slice(0, 200)}".`,
  });
  return {
    systemPrompt: buildSystemPrompt({
      baseInstructions: agent.instructions,
      directory: surface.directory(),
      clientInstructions: request.instructions,
    }),
    providerTools: providerToolsOf(surface),
    surface,
  };
}

/** The tools a surface declares, as the provider request declares them (no description: empty; no schema: an empty object). */
export function providerToolsOf(surface: RunSurface): ProviderTool[] {
  return surface.modelTools().map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.parameters ?? { type: "object", properties: {} },
  }));
}

/** The user's text of this turn, as `before_prompt` hooks see it. */
function userText(request: RunRequest): string {
  return request.input
    .map((item) => (item.type === "message" && item.role === "user" ? item.text : ""))
    .filter(Boolean)
    .join("\n");
}
