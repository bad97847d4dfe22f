import type { ExecutionHooks, ToolCallActivity } from "../../core/execution/index.js";
import type { ApprovalBroker } from "../approvals/index.js";
import { type LoadedPlugins, pluginBeforeToolCall } from "../plugins/index.js";
import { type PolicyLayers, policyDecision } from "../policy/index.js";
import { telemetryOn } from "../telemetry/index.js";
import { type TargetActivity, toTargetActivity } from "./target-activity.js";
import { traceTargetCall } from "./trace-target-call.js";

/** What a front door knows about one run (a gateway run, or one `mcp serve` connection). */
export interface RunHooksOptions {
  agentId: string;
  sessionKey: string;
  /** The client key the run belongs to, recorded on its pending approvals. Default: none. */
  keyId?: string;
  /** The tool policy, re-checked per call. Default: every call allowed. */
  policy?: PolicyLayers;
  /** Their `before_tool_call` hooks run for every call. */
  plugins?: LoadedPlugins;
  /** Decides calls that need approval (`tools.approval`). Default: every call approved. */
  approvals?: Pick<ApprovalBroker, "requestApproval">;
  /** Which finished calls are target calls behind `tool_call` (recorded as display-only activity). */
  isTargetCall(activity: ToolCallActivity): boolean;
  onTargetActivity(activity: TargetActivity): void;
  log?(line: string): void;
}

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
