import type { ResolvedAgent } from "../config/index.js";
import type { ConversationItem } from "../providers/index.js";
import type { RunEvent } from "../run-surface/index.js";
import {
  isoNow,
  isStorageUnavailable,
  openSessionLog,
  type RunLog,
  type SessionLog,
} from "../session-log/index.js";
import { replayConversation, type SessionEvent } from "../sessions/index.js";
import { emitRecordedAnswer, recordedAnswer } from "./recorded-answer.js";
import type { RunnerOptions } from "./runner-options.js";
import type { RunRequest, RunResult } from "./types.js";

/**
 * The log of the run's session. The agent's provider key is known from the start: besides its shape, it is
 * redacted where it reappears as free text (a tool's echo, a provider error quoting it).
 */
export function runSessionLog(options: RunnerOptions, agent: ResolvedAgent, request: RunRequest): SessionLog {
  return openSessionLog({
    sessions: options.environment.sessions,
    agentId: agent.id,
    sessionKey: request.sessionKey,
    ...(request.keyId === undefined ? {} : { keyId: request.keyId }),
    secrets: agent.model.settings?.apiKey ? [agent.model.settings.apiKey] : [],
    log: options.environment.log,
  });
}

/** Options of beginRun. */
export type BeginRunOptions = {
  sessionLog: SessionLog;
  log: RunLog;
  agent: ResolvedAgent;
  request: RunRequest;
  /** `provider/model`, as results name it. */
  model: string;
  emit(event: RunEvent): void;
};

/**
 * How a run begins: with the conversation to send (the session's log replayed with the new input) and where
 * the current turn starts in it, or already answered (a repeated request's recorded answer, a refusal).
 */
export type BegunRun =
  | { kind: "ready"; conversation: ConversationItem[]; turnStart: number }
  | { kind: "answered"; result: RunResult };

/**
 * Reads the session's log and writes the run's first lines (a new session's header, then the input), awaited:
 * a run that cannot log is refused here, before anything runs (the store reports the fault once).
 */
export async function beginRun(options: BeginRunOptions): Promise<BegunRun> {
  const { sessionLog, log, agent, request, model } = options;
  let previous: SessionEvent[];
  const input: SessionEvent = {
    at: isoNow(),
    runId: log.runId,
    type: "user-input",
    items: request.input,
    ...(request.omittedHostedTools?.length ? { omittedHostedTools: request.omittedHostedTools } : {}),
  };
  try {
    previous = await sessionLog.read();
    // Nothing new (a client repeating a request whose items the log already holds): the last run's answer
    // is given again when it had one; otherwise the run goes on from the log, and no empty input is logged.
    if (request.input.length === 0) {
      const recorded = recordedAnswer(previous, { agentId: agent.id, sessionKey: request.sessionKey, model });
      if (recorded !== undefined) {
        emitRecordedAnswer(recorded, request.onEvent);
        return { kind: "answered", result: recorded };
      }
    }
    // Appended together (one write): a new session's header, then the input.
    await Promise.all([
      previous.length === 0 ? sessionLog.appendHeader(input.at) : undefined,
      request.input.length > 0 ? log.append(input) : undefined,
    ]);
  } catch (error) {
    if (!isStorageUnavailable(error)) throw error;
    const refused = storageRefusal(log.runId, agent, request, error);
    options.emit({ type: "run-finish", result: refused });
    return { kind: "answered", result: refused };
  }
  // Replayed with the new input as the log holds it (redacted), so calls the client abandoned are dropped,
  // not sent, and the provider sees what a later turn's replay will show it.
  const conversation = replayConversation([...previous, log.asLogged(input)]);
  // The current turn's input is the replay's tail (or less of it): from here on nothing is trimmed.
  return { kind: "ready", conversation, turnStart: Math.max(0, conversation.length - request.input.length) };
}

/** The result of a run refused because its session log cannot be written: nothing ran. */
function storageRefusal(runId: string, agent: ResolvedAgent, request: RunRequest, error: Error): RunResult {
  return {
    runId,
    agentId: agent.id,
    sessionKey: request.sessionKey,
    status: "failed",
    output: [],
    text: "",
    model: `${agent.model.provider}/${agent.model.id}`,
    usage: { inputTokens: 0, outputTokens: 0 },
    error: { code: "STORAGE_UNAVAILABLE", message: error.message },
  };
}
