import { safeRead } from "../../shared/schema/index.js";
import { callPluginHook, copyForHook, reportHookError } from "./call-plugin-hook.js";
import { PLUGIN_HOOK_TIMEOUT_MS } from "./limits.js";
import type { BeforePromptEvent, BeforePromptResult, PluginHook, RunHooksOptions } from "./types.js";

/**
 * Runs the `before_prompt` hooks in load order and combines their `toolsAllow` lists: the result is the
 * intersection of every list returned (exact names, in the first list's order, without repeats), or
 * undefined when no hook returned one. A hook that throws, times out or returns a `toolsAllow` that is
 * not an array of strings is reported (onHookError) and ignored: it narrows nothing, and the run goes on.
 */
export async function runBeforePromptHooks(
  hooks: readonly PluginHook<BeforePromptEvent, BeforePromptResult>[],
  event: BeforePromptEvent,
  options: RunHooksOptions = {},
): Promise<string[] | undefined> {
  const timeoutMs = options.timeoutMs ?? PLUGIN_HOOK_TIMEOUT_MS;
  let allowed: string[] | undefined;
  for (const hook of hooks) {
    const outcome = await callPluginHook(hook, copyForHook(event), timeoutMs);
    if (!outcome.ok) {
      reportHookError(
        options,
        hook.pluginId,
        `before_prompt hook failed and was ignored: ${outcome.message}`,
      );
      continue;
    }
    const list = safeRead(outcome.answer, "toolsAllow");
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((name) => typeof name === "string")) {
      reportHookError(
        options,
        hook.pluginId,
        "before_prompt hook returned a toolsAllow that is not an array of tool names; ignored.",
      );
      continue;
    }
    const names = new Set(list as string[]);
    allowed = allowed === undefined ? [...names] : allowed.filter((name) => names.has(name));
  }
  return allowed;
}
