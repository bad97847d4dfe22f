import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { messageOf } from "../../shared/errors/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { ConversationItem, Provider } from "../providers/index.js";
import { approvalEvent, emitRunEvent, type RunEvent } from "../run-surface/index.js";
import { beginRun, runSessionLog } from "./begin-run.js";
import { type ClientHandoff, clientToolDefinitions } from "./client-tools.js";
import { functionCalls } from "./execute-call.js";
import { finishRun } from "./finish-run.js";
import { historyBudgetTokens } from "./fit-history.js";
import { handOff } from "./hand-off.js";
import { type PreparedRun, prepareRun } from "./prepare-run.js";
import { messagesOf, requestModel } from "./request-model.js";
import { describeFailure, type RunFailure, turnLimitFailure } from "./run-failure.js";
import { createRunSignal } from "./run-signal.js";
import { runToolCalls } from "./run-tool-calls.js";
import { addUsage, emptyUsage } from "./run-usage.js";
import type { RunnerOptions } from "./runner-options.js";
import { turnHistory } from "./turn-history.js";
import type { RunRequest, RunResult, RunStatus } from "./types.js";

/**
 * Runs one user turn: begin the session's log, prepare the surface, then loop (a model request, its tool
 * calls) until the model answers, a call ends the run or hands it to the client, or a limit is reached.
 */
export async function runAgent(
  options: RunnerOptions,
  agent: ResolvedAgent,
  provider: Provider,
  request: RunRequest,
): Promise<RunResult> {
  const runId = `run_${randomUUID()}`;
  const started = Date.now();
  const model = `${agent.model.provider}/${agent.model.id}`;
  const sessionLog = runSessionLog(options, agent, request);
  const log = sessionLog.startRun(runId);
  const emit = (event: RunEvent) => emitRunEvent(request.onEvent, event);
  const begun = await beginRun({ sessionLog, log, agent, request, model, emit });
  if (begun.kind === "answered") return begun.result;
  const { conversation } = begun;

  const handoffs = new Map<string, ClientHandoff>();
  const clientTools = clientToolDefinitions(request.clientTools ?? [], handoffs);
  const usage = emptyUsage();
  const output: ConversationItem[] = [];
  // The run's one signal, the caller's or else its own: the caller's abort and the run timeout reach it, and
  // nothing of it outlives the run (the runner releases its own; the caller releases its own).
  const run = request.runSignal ?? createRunSignal({ sources: [request.signal] });
  const disarm = run.armTimeout(agent.runTimeoutMs);
  const caller = request.runSignal?.signal ?? request.signal;
  const signal = run.signal;
  // Provider requests get this signal itself: the abort listener a client library adds to it and never
  // removes (one per request) dies with the run, as the signal does. Those listeners are bounded by the
  // run's turns, so the leak warning (at 11 listeners) would only be noise here.
  setMaxListeners(0, signal);
  let prepared: PreparedRun | undefined;
  let turns = 0;
  let status: RunStatus = "incomplete";
  let failure: RunFailure | undefined;

  try {
    prepared = await prepareRun(
      { ...options, environment: { ...options.environment, log: log.note } },
      agent,
      request,
      clientTools,
      {
        // Display-only evidence: a failed write is reported, never an unhandled rejection or a failed run.
        onTargetActivity: (activity) =>
          log.queue({ type: "target-activity", ...activity }, `run ${runId}: could not log target activity`),
        // Who settled each call that waited for approval, and how (display-only, like target activity).
        onApproval: (record) => log.queue(approvalEvent(record), `run ${runId}: could not log an approval`),
        ...(request.onEvent ? { onEvent: request.onEvent } : {}),
      },
    );
    // Started once its surface is open: a run refused before (storage, a tool name clash) has no start event,
    // so a streaming front door can still answer it as a plain error.
    emit({ type: "run-start", runId, agentId: agent.id, sessionKey: request.sessionKey, model });
    const history = turnHistory({
      conversation,
      turnStart: begun.turnStart,
      budgetTokens: historyBudgetTokens({
        contextWindowTokens: agent.contextWindowTokens,
        systemPrompt: prepared.systemPrompt,
        tools: prepared.providerTools,
        maxOutputTokens: request.maxOutputTokens,
      }),
      note: (line) => log.note(`run ${runId}: ${line}`),
    });
    while (turns < agent.maxTurns) {
      turns += 1;
      signal.throwIfAborted();
      const response = await requestModel({
        provider,
        model: agent.model.id,
        prepared,
        history: history(),
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        turn: turns,
        signal,
        log,
        ...(request.onEvent ? { emit } : {}),
      });
      addUsage(usage, response.usage);
      conversation.push(...response.output);
      output.push(...messagesOf(response.output));
      const calls = functionCalls(response.output);
      if (calls.length === 0) {
        status = "completed";
        break;
      }
      // A caller that left, or a timeout that passed while the answer arrived: no tool call starts.
      signal.throwIfAborted();
      const { surface } = prepared;
      const terminated = await runToolCalls(calls, { surface, signal, conversation, handoffs, log, emit });
      if (handoffs.size > 0) {
        handOff(handoffs, output, emit, runId);
        status = "requires_action";
        break;
      }
      if (terminated) {
        status = "completed";
        break;
      }
    }
    if (status === "incomplete") failure = turnLimitFailure(agent.maxTurns);
  } catch (error) {
    status = "failed";
    const cancelled = caller?.aborted === true ? caller.reason : undefined;
    failure = describeFailure(error, { timedOut: run.timedOut, cancelled, runTimeoutMs: agent.runTimeoutMs });
    failure.message = log.redactKnown(failure.message);
    log.note(`run ${runId} failed: ${failure.code}: ${messageOf(error)}`);
  } finally {
    if (run === request.runSignal) disarm();
    else run.release();
    prepared?.surface.close();
  }
  const finished = { status, turns, started, prepared, failure, handoffs, output, usage };
  return finishRun({ log, agent, request, model, ...finished, emit });
}
