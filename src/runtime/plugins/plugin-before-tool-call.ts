import type { BeforeToolCallResult, ToolCallEvent } from "../../core/execution/index.js";
import { runBeforeToolCallHooks } from "./run-before-tool-call-hooks.js";
import type { BeforeToolCallEvent, PluginHook, RunHooksOptions } from "./types.js";

/**
 * The executor's `beforeToolCall` step for one run (ExecutionHooks.beforeToolCall): maps each call to a
 * BeforeToolCallEvent with the run's agent and session, and runs the plugins' hooks on it.
 */
export function pluginBeforeToolCall(
  hooks: readonly PluginHook<BeforeToolCallEvent, BeforeToolCallResult>[],
  context: { agentId: string; sessionKey: string },
  options: RunHooksOptions = {},
): (event: ToolCallEvent) => Promise<BeforeToolCallResult> {
  return (event) =>
    runBeforeToolCallHooks(
      hooks,
      {
        toolName: event.entry.name,
        toolId: event.entry.id,
        source: event.entry.source,
        args: event.args,
        agentId: context.agentId,
        sessionKey: context.sessionKey,
      },
      options,
    );
}
