import type { BeforeToolCallResult, ToolCallEvent } from "../../core/execution/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { PLUGIN_HOOK_TIMEOUT_MS } from "./limits.js";
import { boundMessage, pluginMessage, writePluginLog } from "./plugin-message.js";
import type {
  BeforePromptEvent,
  BeforePromptResult,
  BeforeToolCallEvent,
  PluginHook,
  RunHooksOptions,
} from "./types.js";
import { TimedOut, withTimeout } from "./with-timeout.js";

/** A hook's answer, or why it has none. */
type HookOutcome = { ok: true; answer: unknown } | { ok: false; message: string };

/** Calls one plugin hook within `timeoutMs`; a throw, rejection or timeout becomes a message. Never throws. */
async function callPluginHook<Event, Result>(
  hook: PluginHook<Event, Result>,
  event: Event,
  timeoutMs: number,
): Promise<HookOutcome> {
  try {
    const handler = hook.handler;
    return { ok: true, answer: await withTimeout(() => handler(event), timeoutMs) };
  } catch (error) {
    if (error instanceof TimedOut)
      return { ok: false, message: `did not answer within ${error.timeoutMs} ms` };
    return { ok: false, message: pluginMessage(error) };
  }
}

/** A structured copy of hook input, so a hook changing it in place changes nothing; the value itself if it cannot be copied. */
function copyForHook<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** Tells `onHookError` (default: a stderr line) about a failed hook; a failing reporter changes nothing. */
function reportHookError(options: RunHooksOptions, pluginId: string, message: string): void {
  try {
    if (options.onHookError) options.onHookError({ pluginId, message });
    else writePluginLog({ pluginId, level: "warn", message });
  } catch {
    // Reporting must never change the outcome.
  }
}

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
