import { safeRead } from "../../shared/schema/index.js";
import type { ToolResult } from "../catalog/index.js";
import type { Executor } from "./create-executor.js";
import type { CallSurface, ExecutionHooks, ToolCallEvent } from "./types.js";

/**
 * The executor with each `execute` run through the host's `aroundCall` hook (a tracing span around the
 * whole pipeline). The hook sees the call as it was asked (entry, arguments, surface, call id), before
 * scheduling; what it returns is what the caller gets.
 */
export function wrapEachCall(
  executor: Executor,
  aroundCall: NonNullable<ExecutionHooks["aroundCall"]>,
): Executor {
  return {
    execute(entry, args, options) {
      const toolCallId = safeRead(options, "toolCallId");
      const surface = safeRead(options, "surface");
      const event: ToolCallEvent = {
        entry,
        args,
        surface: typeof surface === "string" ? (surface as CallSurface) : "direct",
        ...(typeof toolCallId === "string" ? { toolCallId } : {}),
      };
      return aroundCall(event, (): Promise<ToolResult> => executor.execute(entry, args, options));
    },
    close: () => executor.close(),
  };
}
