import { ToolsiftError } from "../../shared/errors/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { cutText } from "../../shared/text/index.js";
import type { CatalogEntry, ToolCallContext } from "../catalog/index.js";
import { MAX_LOCAL_ERROR_CHARS } from "./limits.js";
import { thrownMessage } from "./thrown-message.js";
import { TRUNCATED_MARKER, wrapUntrustedText } from "./wrap-untrusted-text.js";

/** Inputs of one tool execution (pipeline step 7). */
export interface RunToolOptions {
  readonly entry: CatalogEntry;
  readonly args: unknown;
  readonly toolCallId?: string;
  /** The caller's signal; its abort is CANCELLED. */
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
  /** Receives the tool's own promise, so the schedule keeps the slot until the tool has really stopped. */
  readonly hold: (work: Promise<unknown>) => void;
}

/** The CANCELLED error for a call its caller aborted; the abort reason is kept as `cause`, unchanged. */
export function cancelledByCaller(entry: CatalogEntry, signal: AbortSignal | undefined): ToolsiftError {
  return new ToolsiftError("CANCELLED", `Tool "${entry.id}" was cancelled.`, { cause: signal?.reason });
}

/**
 * The TOOL_FAILED error for a throw from `execute`. A network-sourced entry's message is sanitised and
 * wrapped like its results, and the error carries nothing else (no cause, code or status of the original);
 * a local entry's message is kept (cut at MAX_LOCAL_ERROR_CHARS) with the thrown value as `cause`.
 */
export function toolFailure(entry: CatalogEntry, thrown: unknown): ToolsiftError {
  const message = thrownMessage(thrown);
  if (entry.resultSource === "network") {
    return new ToolsiftError(
      "TOOL_FAILED",
      `Tool "${entry.id}" failed: ${wrapUntrustedText(message, entry.id)}`,
    );
  }
  const bounded = cutText(message, MAX_LOCAL_ERROR_CHARS, TRUNCATED_MARKER);
  return new ToolsiftError("TOOL_FAILED", `Tool "${entry.id}" failed: ${bounded}`, { cause: thrown });
}

/**
 * Calls `entry.tool.execute(args, { toolCallId, signal })` with a signal that aborts on the caller's abort
 * or after `timeoutMs`. Settles as soon as either happens (CANCELLED / TIMEOUT), even when the tool ignores
 * its signal; the tool's own promise is handed to `hold`. Resolves with whatever `execute` resolved to.
 */
export async function runTool(options: RunToolOptions): Promise<unknown> {
  const { entry, signal, timeoutMs } = options;
  if (signal?.aborted) throw cancelledByCaller(entry, signal);
  const controller = new AbortController();
  let stop: ToolsiftError | undefined;
  let rejectStop: (error: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    rejectStop = reject;
  });
  const stopWith = (why: "caller" | "timeout") => {
    if (stop) return;
    stop =
      why === "caller"
        ? cancelledByCaller(entry, signal)
        : new ToolsiftError(
            "TIMEOUT",
            `Tool "${entry.id}" timed out after ${timeoutMs} ms (the per-call limit). It may still have had effects; check before retrying.`,
          );
    rejectStop(stop);
    controller.abort(why === "caller" ? signal?.reason : stop);
  };
  const onCallerAbort = () => stopWith("caller");
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = setTimeout(() => stopWith("timeout"), timeoutMs);
  const context: ToolCallContext = { signal: controller.signal };
  if (options.toolCallId !== undefined) context.toolCallId = options.toolCallId;

  let work: Promise<unknown>;
  try {
    const execute = safeRead(entry.tool, "execute");
    if (typeof execute !== "function") throw new Error("the tool has no execute function");
    work = Promise.resolve(Reflect.apply(execute, entry.tool, [options.args, context]));
  } catch (error) {
    work = Promise.reject(error);
  }
  options.hold(work);
  try {
    return await Promise.race([work, stopped]);
  } catch (error) {
    throw stop ?? toolFailure(entry, error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onCallerAbort);
  }
}
