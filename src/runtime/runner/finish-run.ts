import { messageOf } from "../../shared/errors/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { ConversationItem, ProviderUsage } from "../providers/index.js";
import type { RunEvent } from "../run-surface/index.js";
import { isStorageUnavailable, type RunLog } from "../session-log/index.js";
import type { ClientHandoff } from "./client-tools.js";
import type { PreparedRun } from "./prepare-run.js";
import { messagesOf } from "./request-model.js";
import type { RunFailure } from "./run-failure.js";
import type { RunRequest, RunResult, RunStatus } from "./types.js";

/** Options of finishRun: how the run went. */
export type FinishRunOptions = {
  log: RunLog;
  agent: ResolvedAgent;
  request: RunRequest;
  /** `provider/model`. */
  model: string;
  status: RunStatus;
  turns: number;
  /** When the run started (`Date.now()`). */
  started: number;
  /** Absent when the run failed before its surface opened. */
  prepared: PreparedRun | undefined;
  failure: RunFailure | undefined;
  handoffs: ReadonlyMap<string, ClientHandoff>;
  output: ConversationItem[];
  usage: ProviderUsage;
  emit(event: RunEvent): void;
};

/**
 * Ends a run: writes its `run-summary` and tells its result. The summary is queued right behind the run's
 * last lines, so they go out in the same write; the store writes a session's appends in order, so once the
 * summary is written, every line before it is too. Tools already ran: a summary that cannot be written
 * never takes the answer away from the caller.
 */
export async function finishRun(options: FinishRunOptions): Promise<RunResult> {
  const { log, agent, request, status, failure, handoffs, output, prepared } = options;
  const runId = log.runId;
  const text = messagesOf(output)
    .map((item) => item.text)
    .join("\n");
  await log
    .append({
      type: "run-summary",
      status,
      turns: options.turns,
      durationMs: Date.now() - options.started,
      ...(prepared ? { telemetry: prepared.surface.telemetry() } : {}),
      ...(failure ? { error: `${failure.code}: ${failure.message}` } : {}),
      ...(handoffs.size > 0 ? { handoffs: [...handoffs.values()].map((handoff) => ({ ...handoff })) } : {}),
    })
    .catch((error: unknown) => {
      if (!isStorageUnavailable(error))
        log.note(`run ${runId}: could not log its summary: ${messageOf(error)}`);
    });
  const result: RunResult = {
    runId,
    agentId: agent.id,
    sessionKey: request.sessionKey,
    status,
    output,
    text,
    model: options.model,
    usage: options.usage,
    ...(failure ? { error: failure } : {}),
  };
  options.emit({ type: "run-finish", result });
  return result;
}
