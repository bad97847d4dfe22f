import { pluginMessage, writePluginLog } from "./plugin-message.js";
import type { PluginHook, RunHooksOptions } from "./types.js";
import { TimedOut, withTimeout } from "./with-timeout.js";

/** A hook's answer, or why it has none. */
export type HookOutcome = { ok: true; answer: unknown } | { ok: false; message: string };

/** Calls one plugin hook within `timeoutMs`; a throw, rejection or timeout becomes a message. Never throws. */
export async function callPluginHook<Event, Result>(
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
export function copyForHook<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** Tells `onHookError` (default: a stderr line) about a failed hook; a failing reporter changes nothing. */
export function reportHookError(options: RunHooksOptions, pluginId: string, message: string): void {
  try {
    if (options.onHookError) options.onHookError({ pluginId, message });
    else writePluginLog({ pluginId, level: "warn", message });
  } catch {
    // Reporting must never change the outcome.
  }
}
