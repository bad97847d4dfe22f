import type { ExecutionHooks, ToolCallActivity } from "../../core/execution/index.js";
import type { ApprovalRecord } from "../approvals/index.js";
import type { RunProfile, RunSurfaceEnvironment } from "../environment/index.js";
import { pluginBeforeToolCall } from "../plugins/index.js";
import { policyDecision } from "../policy/index.js";
import { telemetryOn } from "../telemetry/index.js";
import { type TargetActivity, toTargetActivity } from "./target-activity.js";
import { traceTargetCall } from "./trace-target-call.js";
import type { RunSurfaceRun } from "./types.js";

/** The executor hooks of one run: its environment's hooks, approvals and log, its profile's policy. */
export type RunHooksOptions = Pick<RunSurfaceEnvironment, "plugins" | "approvals" | "log"> &
  Pick<RunProfile, "policy"> &
  Pick<RunSurfaceRun, "sessionKey" | "keyId"> & {
    agentId: string;
    /** Which finished calls are target calls behind `tool_call` (recorded as display-only activity). */
    isTargetCall(activity: ToolCallActivity): boolean;
    onTargetActivity(activity: TargetActivity): void;
    /** How each call that waited for approval was settled, with the model's call id. Default: dropped. */
    onApproval?(record: ApprovalRecord & { callId?: string }): void;
  };

/**
 * The executor hooks of one run, the same for every front door: the policy re-checked per call, the plugins'
 * `before_tool_call` hooks (a failing hook is logged and skipped), approvals for the run's agent and session,
 * and every finished target call handed on as display-only activity.
 */
export function createRunHooks(options: RunHooksOptions): ExecutionHooks {
  const { policy, approvals, log } = options;
  return {
    ...(policy ? { checkPolicy: (event) => policyDecision(event.entry, policy) } : {}),
    ...(approvals
      ? {
          requestApproval: (event) =>
            approvals.requestApproval({
              ...event,
              agentId: options.agentId,
              sessionKey: options.sessionKey,
              ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
              ...(options.onApproval === undefined
                ? {}
                : {
                    onSettled: (record: ApprovalRecord) =>
                      options.onApproval?.({
                        ...record,
                        ...(event.toolCallId === undefined ? {} : { callId: event.toolCallId }),
                      }),
                  }),
            }),
        }
      : {}),
    beforeToolCall: pluginBeforeToolCall(
      options.plugins?.hooks.beforeToolCall ?? [],
      { agentId: options.agentId, sessionKey: options.sessionKey },
      { onHookError: ({ pluginId, message }) => log?.(`plugin ${pluginId} hook failed: ${message}`) },
    ),
    onCallFinished: (activity) => {
      if (options.isTargetCall(activity)) options.onTargetActivity(toTargetActivity(activity));
    },
    // Only while an OpenTelemetry SDK is registered: target calls get spans of their own.
    ...(telemetryOn() ? { aroundCall: traceTargetCall } : {}),
  };
}
