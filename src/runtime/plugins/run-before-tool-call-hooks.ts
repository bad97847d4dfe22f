import type { BeforeToolCallResult } from "../../core/execution/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { callPluginHook, copyForHook, reportHookError } from "./call-plugin-hook.js";
import { PLUGIN_HOOK_TIMEOUT_MS } from "./limits.js";
import { boundMessage } from "./plugin-message.js";
import type { BeforeToolCallEvent, PluginHook, RunHooksOptions } from "./types.js";

/**
 * Runs the `before_tool_call` hooks in load order. Each hook sees the arguments as rewritten by the
 * earlier ones (as a copy); a hook answering `{ params }` rewrites them, `{ block: reason }` blocks the
 * call at once (the first block wins; a block without a usable reason gets one naming the plugin).
 * Fail closed: a hook that throws, rejects or runs past the timeout blocks the call with a reason naming
 * the plugin. Resolves to `{ params }` when any hook rewrote, `{ block }`, or undefined.
 */
export async function runBeforeToolCallHooks(
  hooks: readonly PluginHook<BeforeToolCallEvent, BeforeToolCallResult>[],
  event: BeforeToolCallEvent,
  options: RunHooksOptions = {},
): Promise<BeforeToolCallResult> {
  const timeoutMs = options.timeoutMs ?? PLUGIN_HOOK_TIMEOUT_MS;
  let args = event.args;
  let rewritten = false;
  for (const hook of hooks) {
    const outcome = await callPluginHook(hook, { ...event, args: copyForHook(args) }, timeoutMs);
    if (!outcome.ok) {
      const reason = `before_tool_call hook of plugin "${hook.pluginId}" failed: ${outcome.message}`;
      reportHookError(options, hook.pluginId, reason);
      return { block: reason };
    }
    const { answer } = outcome;
    if (typeof answer !== "object" || answer === null) continue;
    const block = safeRead(answer, "block");
    if (block !== undefined && block !== null && block !== false) {
      const reason =
        typeof block === "string" && block.length > 0
          ? boundMessage(block)
          : `blocked by plugin "${hook.pluginId}"`;
      return { block: reason };
    }
    const params = safeRead(answer, "params");
    if (params !== undefined) {
      args = params;
      rewritten = true;
    }
  }
  return rewritten ? { params: args } : undefined;
}
