import { isToolsiftError, ToolsiftError } from "../../shared/errors/index.js";
import { safeRead, safeReadString } from "../../shared/schema/index.js";
import type { CatalogEntry, ToolResult } from "../catalog/index.js";
import { BlockedError, blockedError } from "./blocked-error.js";
import { DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_TIMEOUT_MS } from "./limits.js";
import { normalizeToolResult } from "./normalize-tool-result.js";
import { checkOutputContract, compileOutputContract } from "./output-contract.js";
import { runHook } from "./run-hooks.js";
import { cancelledByCaller, runTool } from "./run-tool.js";
import { CATALOG_UNAVAILABLE_MESSAGE, createToolScheduler, type ScheduleSlot } from "./tool-scheduler.js";
import type { CallSurface, ExecutionHooks, ToolCallActivity, ToolCallEvent } from "./types.js";
import { validateArguments } from "./validate-arguments.js";
import { sharedValidatorCache, type ValidatorCache } from "./validator-cache.js";
import { wrapNetworkResult } from "./wrap-untrusted-text.js";

/** Options for an executor: one per run catalog. */
export interface ExecutorOptions {
  /** The host's policy, hooks, approvals and activity sink. Default: none (every call allowed and approved). */
  hooks?: ExecutionHooks;
  /** Per-call execution timeout in ms. Default DEFAULT_TOOL_TIMEOUT_MS (120,000); values that are not positive
   * numbers use the default, larger ones are clamped to MAX_TOOL_TIMEOUT_MS. Only execution itself is timed. */
  timeoutMs?: number;
  /** Whether the entry is still the one in the run's current catalog (checked at admission and before execution). */
  isAvailable(entry: CatalogEntry): boolean;
  /** Compiled validators, by schema content. Default: the library's own (`sharedValidatorCache`). */
  validators?: ValidatorCache;
}

/** One call's context. */
export interface ExecuteOptions {
  toolCallId?: string;
  /** Aborting it cancels the call: a queued call is removed, a running one gets CANCELLED at once. */
  signal?: AbortSignal;
  surface: CallSurface;
}

/** The executor pipeline of one run catalog. */
export interface Executor {
  /** Runs one call through the whole pipeline. Resolves with the result the model should see (network-sourced results wrapped); rejects only with a ToolsiftError. */
  execute(entry: CatalogEntry, args: unknown, options: ExecuteOptions): Promise<ToolResult>;
  /** Closes the schedule: queued calls are cancelled (rejected with CATALOG_CLOSED, message "Tool Search catalog is unavailable for this run."); later execute calls reject the same way. */
  close(): void;
}

/** The message a queued call gets when its entry was removed or replaced while it waited. */
export const QUEUED_TOOL_CHANGED_MESSAGE = "Queued tool changed or is no longer available in this run.";

function effectiveTimeout(value: unknown): number {
  if (typeof value !== "number" || !(value > 0)) return DEFAULT_TOOL_TIMEOUT_MS;
  return Math.min(Math.ceil(value), MAX_TOOL_TIMEOUT_MS);
}

/** Any thrown value as the ToolsiftError execute() rejects with; unexpected ones become INTERNAL. */
function asToolsiftError(error: unknown, entry: CatalogEntry): ToolsiftError {
  try {
    if (isToolsiftError(error)) return error;
  } catch {
    // An unreadable thrown value is unexpected by definition.
  }
  const id = safeReadString(entry, "id", "(unknown)");
  return new ToolsiftError(
    "INTERNAL",
    `Tool Search hit an internal error while calling "${id}"; the call may not have run. Try again or report it.`,
    { cause: error },
  );
}

const SURFACES: ReadonlySet<string> = new Set(["control", "direct", "directory", "code-mode"]);

/** The call options, read without trusting the object: a missing or odd value falls back to defaults. */
function readCallOptions(value: unknown): ExecuteOptions {
  const surface = safeRead(value, "surface");
  const toolCallId = safeRead(value, "toolCallId");
  const signal = safeRead(value, "signal");
  const call: ExecuteOptions = {
    surface: typeof surface === "string" && SURFACES.has(surface) ? (surface as CallSurface) : "direct",
  };
  if (typeof toolCallId === "string") call.toolCallId = toolCallId;
  if (signal instanceof AbortSignal) call.signal = signal;
  return call;
}

function errorResult(error: ToolsiftError): ToolResult {
  const details =
    error instanceof BlockedError
      ? { ...error.details, error: { code: error.code, message: error.message } }
      : { error: { code: error.code, message: error.message } };
  return { content: [{ type: "text", text: error.message }], isError: true, details };
}

/**
 * Creates the executor pipeline for one run catalog: scheduling (one shared schedule), availability and
 * policy, `before_tool_call` hooks, approval, output-contract compilation, input validation (native
 * only), execution with timeout and abort, output validation, then `onCallFinished` (every call, whatever
 * its outcome). Compiled validators are shared by schema content (the caches the host hands in). See DESIGN.md for the order and the invariants.
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const hooks: ExecutionHooks = options.hooks ?? {};
  const timeoutMs = effectiveTimeout(options.timeoutMs);
  const scheduler = createToolScheduler();
  const validators = options.validators ?? sharedValidatorCache();
  let closed = false;

  const available = (entry: CatalogEntry): boolean => {
    try {
      return options.isAvailable(entry) === true;
    } catch {
      return false;
    }
  };

  const ensureCallable = (entry: CatalogEntry, signal: AbortSignal | undefined) => {
    if (closed) throw new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE_MESSAGE);
    if (signal?.aborted) throw cancelledByCaller(entry, signal);
    if (!available(entry)) {
      throw new ToolsiftError("TOOL_UNAVAILABLE", `Tool "${entry.id}" is no longer available in this run.`);
    }
  };

  const notify = (activity: ToolCallActivity) => {
    try {
      const returned: unknown = hooks.onCallFinished?.(activity);
      // A sink written as an async function must not leave an unhandled rejection behind.
      Promise.resolve(returned).catch(() => {});
    } catch {
      // Activity sinks must not change a call's outcome.
    }
  };

  const pipeline = async (
    entry: CatalogEntry,
    state: { args: unknown },
    call: ExecuteOptions,
    slot: ScheduleSlot,
  ): Promise<ToolResult> => {
    const { signal } = call;
    const event = (): ToolCallEvent => ({
      entry,
      args: state.args,
      surface: call.surface,
      ...(call.toolCallId === undefined ? {} : { toolCallId: call.toolCallId }),
      ...(signal === undefined ? {} : { signal }),
    });

    ensureCallable(entry, signal);
    const policy = await runHook(hooks, "checkPolicy", event(), signal);
    if (policy && "block" in policy) throw blockedError(entry, policy.block);

    const before = await runHook(hooks, "beforeToolCall", event(), signal);
    if (before && "block" in before) throw blockedError(entry, before.block);
    if (before && "params" in before) state.args = before.params;

    const approval = await runHook(hooks, "requestApproval", event(), signal);
    if (approval && "block" in approval) throw blockedError(entry, approval.block);

    const outputContract = compileOutputContract(entry, validators);
    validateArguments(entry, state.args, validators);

    ensureCallable(entry, signal);
    const raw = await runTool({
      entry,
      args: state.args,
      timeoutMs,
      hold: (work) => slot.hold(work),
      ...(call.toolCallId === undefined ? {} : { toolCallId: call.toolCallId }),
      ...(signal === undefined ? {} : { signal }),
    });
    const result = normalizeToolResult(raw, entry.id);
    if (outputContract && result.isError !== true) checkOutputContract(entry, outputContract, result.details);
    return wrapNetworkResult(result, entry);
  };

  const executor: Executor = {
    async execute(entry, args, callOptions) {
      const call = readCallOptions(callOptions);
      const state = { args };
      let notified = false;
      const finish = (result: ToolResult, outcome: ToolCallActivity["outcome"]) => {
        notified = true;
        notify({
          entry,
          args: state.args,
          surface: call.surface,
          outcome,
          result,
          ...(call.toolCallId === undefined ? {} : { toolCallId: call.toolCallId }),
        });
      };
      const fail = (thrown: unknown): ToolsiftError => {
        const error = asToolsiftError(thrown, entry);
        if (!notified) finish(errorResult(error), error.code === "BLOCKED" ? "blocked" : "error");
        return error;
      };
      try {
        if (closed) throw new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE_MESSAGE);
        return await scheduler.run(
          async (slot) => {
            try {
              const result = await pipeline(entry, state, call, slot);
              finish(result, result.isError === true ? "error" : "ok");
              return result;
            } catch (error) {
              throw fail(error);
            }
          },
          {
            mode: entry.executionMode === "sequential" ? "sequential" : "parallel",
            label: entry.id,
            ...(call.signal === undefined ? {} : { signal: call.signal }),
            onAdmitAfterWait: () => {
              if (!closed && !available(entry))
                throw new ToolsiftError("TOOL_UNAVAILABLE", QUEUED_TOOL_CHANGED_MESSAGE);
            },
          },
        );
      } catch (error) {
        throw fail(error);
      }
    },
    close() {
      closed = true;
      scheduler.close();
    },
  };
  return hooks.aroundCall ? wrapEachCall(executor, hooks.aroundCall) : executor;
}

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
