import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { isToolsiftError, messageOf } from "../../shared/errors/index.js";
import { cutText } from "../../shared/text/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { ConversationItem, Provider, ProviderUsage } from "../providers/index.js";
import {
  emitRunEvent,
  MAX_LOGGED_OUTPUT_CHARS,
  type RunEvent,
  type RunSurface,
  type SurfaceCall,
} from "../run-surface/index.js";
import {
  collectSecretValues,
  redactKnownValues,
  redactSecrets,
  redactSessionEvent,
  redactText,
  replayConversation,
  type SessionEvent,
} from "../sessions/index.js";
import { type ClientHandoff, clientToolDefinitions } from "./client-tools.js";
import { describeHistoryTrim, fitHistory, historyBudgetTokens } from "./fit-history.js";
import { type PreparedRun, prepareRun } from "./prepare-run.js";
import { emitRecordedAnswer, recordedAnswer } from "./recorded-answer.js";
import { createRunSignal } from "./run-signal.js";
import type { RunnerOptions } from "./runner-options.js";
import type { RunRequest, RunResult, RunStatus } from "./types.js";

type FunctionCall = Extract<ConversationItem, { type: "function_call" }>;

/** Runs one user turn: prepare the surface, loop provider requests and tool calls, log every step. */
export async function runAgent(
  options: RunnerOptions,
  agent: ResolvedAgent,
  provider: Provider,
  request: RunRequest,
): Promise<RunResult> {
  const runId = `run_${randomUUID()}`;
  const started = Date.now();
  const { sessions } = options.environment;
  // Secrets this run knows (its provider key, values of secret-named call arguments): the store redacts
  // secrets by key and shape; these are also redacted where they reappear as free text (a tool's echo, the
  // model's own words, a provider error quoting the key).
  const secrets = new Set<string>(agent.model.settings?.apiKey ? [agent.model.settings.apiKey] : []);
  const log = (event: SessionEvent) => {
    const written = sessions.append(agent.id, request.sessionKey, redactSessionEvent(event, secrets));
    // Lines not waited for are settled by the summary: a store writes one session's appends in order.
    written.catch(() => {});
    return written;
  };
  // The run's log lines (plugin hook failures, errors) get the same treatment.
  const runLog = (line: string) => options.environment.log(redactText(redactKnownValues(line, secrets)));
  const emit = (event: RunEvent) => emitRunEvent(request.onEvent, event);
  const model = `${agent.model.provider}/${agent.model.id}`;

  // A run that cannot log is refused here, before anything runs (the store reports the fault once).
  let previous: SessionEvent[];
  const input: SessionEvent = {
    at: isoNow(),
    runId,
    type: "user-input",
    items: request.input,
    ...(request.omittedHostedTools?.length ? { omittedHostedTools: request.omittedHostedTools } : {}),
  };
  try {
    previous = await sessions.read(agent.id, request.sessionKey);
    const header: SessionEvent = {
      type: "session",
      version: 1,
      agentId: agent.id,
      sessionKey: request.sessionKey,
      ...(request.keyId === undefined ? {} : { keyId: request.keyId }),
      at: input.at,
    };
    // Nothing new (a client repeating a request whose items the log already holds): the last run's answer
    // is given again when it had one; otherwise the run goes on from the log, and no empty input is logged.
    if (request.input.length === 0) {
      const recorded = recordedAnswer(previous, { agentId: agent.id, sessionKey: request.sessionKey, model });
      if (recorded !== undefined) {
        emitRecordedAnswer(recorded, request.onEvent);
        return recorded;
      }
    }
    // Appended together (one write): a new session's header, then the input.
    await Promise.all([
      previous.length === 0 ? log(header) : undefined,
      request.input.length > 0 ? log(input) : undefined,
    ]);
  } catch (error) {
    if (!isStorageUnavailable(error)) throw error;
    const refused = storageRefusal(runId, agent, request, error);
    emit({ type: "run-finish", result: refused });
    return refused;
  }
  // Replayed with the new input as the log holds it (redacted), so calls the client abandoned are dropped,
  // not sent, and the provider sees what a later turn's replay will show it.
  const conversation: ConversationItem[] = replayConversation([
    ...previous,
    redactSecrets(redactKnownValues(input, secrets)) as SessionEvent,
  ]);
  // The current turn's input is the replay's tail (or less of it): from here on nothing is trimmed.
  const turnStart = Math.max(0, conversation.length - request.input.length);

  const handoffs = new Map<string, ClientHandoff>();
  const clientTools = clientToolDefinitions(request.clientTools ?? [], handoffs);
  const usage: ProviderUsage = { inputTokens: 0, outputTokens: 0 };
  const output: ConversationItem[] = [];
  // The run's own signal: the caller's abort and the run timeout reach it, and nothing of it outlives the run.
  const run = createRunSignal({ sources: [request.signal], timeoutMs: agent.runTimeoutMs });
  const signal = run.signal;
  // Provider requests get this signal itself: the abort listener a client library adds to it and never
  // removes (one per request) dies with the run, as the signal does. Those listeners are bounded by the
  // run's turns, so the leak warning (at 11 listeners) would only be noise here.
  setMaxListeners(0, signal);
  let prepared: PreparedRun | undefined;
  let turns = 0;
  let status: RunStatus = "incomplete";
  let failure: { code: string; message: string } | undefined;

  try {
    prepared = await prepareRun(
      { ...options, environment: { ...options.environment, log: runLog } },
      agent,
      request,
      clientTools,
      {
        onTargetActivity: (activity) => {
          // Display-only evidence: a failed write is reported, never an unhandled rejection or a failed run.
          log({ at: isoNow(), runId, type: "target-activity", ...activity }).catch((error: unknown) => {
            if (!isStorageUnavailable(error))
              runLog(`run ${runId}: could not log target activity: ${messageOf(error)}`);
          });
        },
        ...(request.onEvent ? { onEvent: request.onEvent } : {}),
      },
    );
    // Started once its surface is open: a run refused before (storage, a tool name clash) has no start event,
    // so a streaming front door can still answer it as a plain error.
    emit({ type: "run-start", runId, agentId: agent.id, sessionKey: request.sessionKey, model });
    const historyBudget = historyBudgetTokens({
      contextWindowTokens: agent.contextWindowTokens,
      systemPrompt: prepared.systemPrompt,
      tools: prepared.providerTools,
      maxOutputTokens: request.maxOutputTokens,
    });
    let trimLogged = false;
    while (turns < agent.maxTurns) {
      turns += 1;
      signal.throwIfAborted();
      // The history sent fits the model's context window; the system prompt and tools are never trimmed.
      const history = fitHistory(conversation, { budgetTokens: historyBudget, keepFrom: turnStart });
      if (history.trimmed !== undefined && !trimLogged) {
        trimLogged = true;
        runLog(`run ${runId}: ${describeHistoryTrim(history.trimmed, historyBudget)}`);
      }
      // With a listener, text is streamed as it arrives; otherwise each message is told whole below.
      let streamedText = false;
      const turn = turns;
      const onTextDelta = request.onEvent
        ? (delta: string) => {
            if (delta === "" || signal.aborted) return;
            streamedText = true;
            emit({ type: "text-delta", runId, turn, delta });
          }
        : undefined;
      // The run timeout holds even against a provider that ignores the signal.
      const response = await untilAborted(
        provider.complete({
          model: agent.model.id,
          instructions: prepared.systemPrompt,
          input: history.items,
          tools: prepared.providerTools,
          ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
          signal,
          ...(onTextDelta ? { onTextDelta } : {}),
        }),
        signal,
      );
      for (const item of response.output)
        if (item.type === "function_call")
          for (const value of collectSecretValues(item.arguments)) secrets.add(value);
      addUsage(usage, response.usage);
      // Later lines are not waited for one by one (they batch); all settle before the summary is written.
      void log({
        at: isoNow(),
        runId,
        type: "model-request",
        provider: provider.id,
        model: agent.model.id,
        declaredTools: prepared.providerTools.map((tool) => tool.name),
        declaredToolCount: prepared.providerTools.length,
        systemPromptChars: prepared.systemPrompt.length,
        requestBytes: response.requestBytes,
        ...(response.usage ? { usage: response.usage } : {}),
        ...(history.trimmed === undefined
          ? {}
          : { trimmed: { items: history.trimmed.items, chars: history.trimmed.chars } }),
      });
      void log({ at: isoNow(), runId, type: "assistant-output", items: response.output });
      conversation.push(...response.output);
      for (const item of response.output) {
        if (item.type !== "message") continue;
        output.push(item);
        if (item.text && !streamedText) emit({ type: "text-delta", runId, turn, delta: item.text });
      }
      emit({
        type: "model-request-finish",
        runId,
        turn,
        ...(response.usage ? { usage: response.usage } : {}),
      });
      const calls = response.output.filter((item): item is FunctionCall => item.type === "function_call");
      if (calls.length === 0) {
        status = "completed";
        break;
      }
      // A caller that left, or a timeout that passed while the answer arrived: no tool call starts.
      signal.throwIfAborted();
      const surface = prepared.surface;
      const results = await Promise.all(calls.map((call) => executeCall(call, surface, signal, emit)));
      let terminated = false;
      for (const [index, call] of calls.entries()) {
        const { result, text, attribution } = results[index] as SurfaceCall;
        if (handoffs.has(call.callId)) continue; // the client answers this one
        for (const value of collectSecretValues(text)) secrets.add(value);
        conversation.push({
          type: "function_call_output",
          callId: call.callId,
          output: text,
          ...(result.isError === true ? { isError: true as const } : {}),
        });
        void log({
          at: isoNow(),
          runId,
          type: "tool-result",
          callId: call.callId,
          name: call.name,
          ...attribution,
          isError: result.isError === true,
          output: cutText(text, MAX_LOGGED_OUTPUT_CHARS),
        });
        if (result.terminate) terminated = true;
      }
      if (handoffs.size > 0) {
        for (const handoff of handoffs.values()) {
          output.push({
            type: "function_call",
            callId: handoff.callId,
            name: handoff.name,
            arguments: handoff.arguments,
          });
          emit({ type: "tool-call-handoff", runId, ...handoff });
        }
        status = "requires_action";
        break;
      }
      if (terminated) {
        status = "completed";
        break;
      }
    }
    if (status === "incomplete")
      failure = {
        code: "TURN_LIMIT",
        message: `The run reached its limit of ${agent.maxTurns} model requests.`,
      };
  } catch (error) {
    status = "failed";
    failure = describeFailure(error, {
      timedOut: run.timedOut,
      cancelled: request.signal?.aborted === true ? request.signal.reason : undefined,
      runTimeoutMs: agent.runTimeoutMs,
    });
    failure.message = redactKnownValues(failure.message, secrets);
    runLog(`run ${runId} failed: ${failure.code}: ${messageOf(error)}`);
  } finally {
    run.release();
    prepared?.surface.close();
  }

  const text = output
    .filter((item): item is Extract<ConversationItem, { type: "message" }> => item.type === "message")
    .map((item) => item.text)
    .join("\n");
  // Queued right behind the run's last lines, so they go out in the same write; the store writes a session's
  // appends in order, so once the summary is written, every line before it is too.
  // Tools already ran: a summary that cannot be written never takes the answer away from the caller.
  await log({
    at: isoNow(),
    runId,
    type: "run-summary",
    status,
    turns,
    durationMs: Date.now() - started,
    ...(prepared ? { telemetry: prepared.surface.telemetry() } : {}),
    ...(failure ? { error: `${failure.code}: ${failure.message}` } : {}),
    ...(handoffs.size > 0 ? { handoffs: [...handoffs.values()].map((handoff) => ({ ...handoff })) } : {}),
  }).catch((error: unknown) => {
    if (!isStorageUnavailable(error)) runLog(`run ${runId}: could not log its summary: ${messageOf(error)}`);
  });
  const result: RunResult = {
    runId,
    agentId: agent.id,
    sessionKey: request.sessionKey,
    status,
    output,
    text,
    model,
    usage,
    ...(failure ? { error: failure } : {}),
  };
  emit({ type: "run-finish", result });
  return result;
}

/** One model call through the run surface; arguments that are not JSON are refused before anything runs. */
async function executeCall(
  call: FunctionCall,
  surface: RunSurface,
  signal: AbortSignal,
  emit: (event: RunEvent) => void,
): Promise<SurfaceCall> {
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    const text = `Arguments for ${call.name} are not valid JSON: send one JSON object.`;
    const attribution = surface.describeCall(call.name);
    emit({
      type: "tool-call-finish",
      callId: call.callId,
      name: call.name,
      isError: true,
      output: text,
      ...attribution,
    });
    return { result: { content: [{ type: "text", text }], isError: true }, text, attribution };
  }
  return surface.execute(call.name, args, { toolCallId: call.callId, signal });
}

function describeFailure(
  error: unknown,
  how: { timedOut: boolean; cancelled: unknown; runTimeoutMs: number },
): { code: string; message: string } {
  if (how.timedOut)
    return { code: "RUN_TIMEOUT", message: `The run exceeded its timeout of ${how.runTimeoutMs} ms.` };
  if (how.cancelled !== undefined) {
    // A caller that says why (the gateway: its client left, or it is shutting down) is quoted.
    const reason =
      isToolsiftError(how.cancelled) && how.cancelled.code === "CANCELLED" ? how.cancelled : undefined;
    return { code: "CANCELLED", message: reason?.message ?? "The run was cancelled by its caller." };
  }
  if (isToolsiftError(error)) return { code: error.code, message: error.message };
  return { code: "INTERNAL", message: "The run failed unexpectedly; see the gateway log." };
}

/** Adds one response's usage to the run's: token counts, and the cache counts once any response has them. */
function addUsage(total: ProviderUsage, usage: ProviderUsage | undefined): void {
  total.inputTokens += usage?.inputTokens ?? 0;
  total.outputTokens += usage?.outputTokens ?? 0;
  if (usage?.cacheReadInputTokens !== undefined)
    total.cacheReadInputTokens = (total.cacheReadInputTokens ?? 0) + usage.cacheReadInputTokens;
  if (usage?.cacheCreationInputTokens !== undefined)
    total.cacheCreationInputTokens = (total.cacheCreationInputTokens ?? 0) + usage.cacheCreationInputTokens;
}

function isStorageUnavailable(error: unknown): error is Error {
  return isToolsiftError(error) && error.code === "STORAGE_UNAVAILABLE";
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

/** The last time isoNow formatted, and its text: a run logs several events within one millisecond. */
let lastStamp = { ms: Number.NaN, iso: "" };

/** `new Date().toISOString()`, formatted once per millisecond. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastStamp.ms) lastStamp = { ms, iso: new Date(ms).toISOString() };
  return lastStamp.iso;
}

/** `work`, or a rejection with the signal's reason as soon as the signal aborts (whichever comes first). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
