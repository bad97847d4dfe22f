import { safeRead } from "../../shared/schema/index.js";
import type { ToolCallContext } from "../catalog/index.js";
import { checkJsonArgs } from "./check-json-args.js";
import { repairCallArguments } from "./repair-call-arguments.js";
import { resolveTarget } from "./resolve-target.js";
import { toCandidate } from "./to-candidate.js";
import type { CallEnvelope, ControlRuntime } from "./types.js";

/**
 * `tool_call`'s logic: repairs the arguments, resolves the target (nothing runs on a miss), checks that the
 * arguments are JSON data, then runs one call through the runtime's executor pipeline. Counts one call per
 * request that reaches the executor. Resolves to the envelope `{ tool, result }`; throws ToolsiftError.
 */
export async function runToolCall(
  runtime: ControlRuntime,
  raw: unknown,
  context: ToolCallContext,
): Promise<CallEnvelope> {
  const snapshot = runtime.snapshot();
  const { selector, args } = repairCallArguments(raw, snapshot);
  const entry = resolveTarget(runtime, selector);
  checkJsonArgs(args, entry.id);
  runtime.count("call");
  const result = await runtime.execute(entry, args, callOptions(context));
  return { tool: toCandidate(entry, { compact: false }), result };
}

/** The call id and abort signal of a context, read without trusting it. */
export function callOptions(context: unknown): { toolCallId?: string; signal?: AbortSignal } {
  const toolCallId = safeRead(context, "toolCallId");
  const signal = safeRead(context, "signal");
  return {
    ...(typeof toolCallId === "string" ? { toolCallId } : {}),
    ...(signal instanceof AbortSignal ? { signal } : {}),
  };
}
