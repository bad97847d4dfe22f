import { type CatalogEntry, toCatalogEntry } from "../../core/catalog/index.js";
import { createExecutor } from "../../core/execution/index.js";
import type { ApprovalBroker } from "../../runtime/approvals/index.js";
import type { ConversationItem } from "../../runtime/providers/index.js";
import type { RunEvent } from "../../runtime/run-surface/index.js";
import type {
  EffectiveSurface,
  ProviderStatus,
  Runner,
  RunRequest,
  RunResult,
} from "../../runtime/runner/index.js";
import type { SessionEvent, SessionStore } from "../../runtime/sessions/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";

type Deferred = { promise: Promise<void>; resolve(): void };

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * A Runner for gateway tests, driven by the last user message of the turn:
 * - `hold:<label>` waits until `release(label)` (or the run's signal aborts: then it fails CANCELLED);
 * - `call:<tool>` calls that client tool (requires_action) with `{"city":"Paris"}`, `call:<tool> <json>`
 *   with those arguments;
 * - `fail:<CODE>` fails with that code and a message carrying stack-like lines;
 * - `throw` throws an Error (a runner bug); `throw:<CODE>` throws an fs-like error with that `code`
 *   (`throw:EMFILE`: the process is out of file descriptors); `cut` ends incomplete (TURN_LIMIT);
 * - `exec:<command>` calls a core `exec` tool through the real executor, whose approval step asks the
 *   `approvals` broker (when given): answers `exec said: ran <command>` or `exec blocked: <message>`;
 * - a `function_call_output` is answered `tool said: <output>`; anything else `echo: <text>`.
 * With `emitEvents`, runs also tell their events to `RunRequest.onEvent` as the real runner does (run-start,
 * text deltas and the end of each turn, client calls handed back, run-finish). Labels for streaming:
 * - `deltas:<a>|<b>|…` answers `<a><b>…`, streamed as one delta per part;
 * - `turns:<a>|<b>|…` answers one message per part, one turn each (the text joined by newlines);
 * - `fail-after-text:<CODE>` streams `partial answer` in turn 1, then fails with that code;
 * - `throw-after-text` streams `partial answer`, then throws;
 * - `trickle:<label>` streams `first `, waits for `release("trickle:<label>")`, then `second`.
 * Without it, the runner ignores `onEvent` (a runner that only returns its result).
 * Every run writes real session events, and the runner records overlap per session and overall.
 */
export class FakeRunner implements Runner {
  readonly requests: RunRequest[] = [];
  /** The providers' statuses `/healthz` reports; set by a test (default: the runner reports none). */
  providerStatus?: () => Record<string, ProviderStatus>;
  /** `start:<label>` / `end:<label>` in the order runs started and ended (label: the message text). */
  readonly timeline: string[] = [];
  maxConcurrent = 0;
  maxConcurrentPerSession = 0;
  closed = false;
  readonly #sessions: SessionStore;
  readonly #agents: string[];
  readonly #gates = new Map<string, Deferred>();
  readonly #started = new Map<string, Deferred>();
  readonly #activeBySession = new Map<string, number>();
  /** Each session's last run status (the real runner reads it from its log's run summary). */
  readonly #lastStatus = new Map<string, RunResult["status"]>();
  #active = 0;
  #calls = 0;

  readonly #onStart: ((label: string) => void) | undefined;
  readonly #approvals: ApprovalBroker | undefined;
  readonly #emitEvents: boolean;

  constructor(
    sessions: SessionStore,
    options: {
      agents?: string[];
      onStart?: (label: string) => void;
      approvals?: ApprovalBroker;
      emitEvents?: boolean;
    } = {},
  ) {
    this.#sessions = sessions;
    this.#emitEvents = options.emitEvents === true;
    this.#agents = options.agents ?? ["main", "helper", "broken"];
    this.#onStart = options.onStart;
    this.#approvals = options.approvals;
  }

  agentIds(): string[] {
    return [...this.#agents];
  }

  async effectiveSurface(agentId: string): Promise<EffectiveSurface> {
    if (agentId === "broken") throw new Error("surface exploded at /secret/path/plugin.js:12:3");
    return {
      agentId,
      toolSearch: { enabled: true, mode: "tools" },
      tools: [
        { id: "native:core:read", name: "read", source: "native", owner: "core", visibility: "direct" },
      ],
      declaredTools: ["tool_search", "tool_describe", "tool_call", "read"],
      directory: "### Deferred Tool Schemas\n",
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Resolves once a run labelled `label` started. */
  started(label: string): Promise<void> {
    return this.#startedGate(label).promise;
  }

  /** Lets the held run `label` finish. */
  release(label: string): void {
    this.#gate(label).resolve();
  }

  async run(given: RunRequest): Promise<RunResult> {
    this.requests.push(given);
    const session = `${given.agentId}/${given.sessionKey}`;
    const history = await this.#sessions.read(given.agentId, given.sessionKey);
    // Nothing new (the gateway saw a repeated request), as the real runner: the last answer again when the
    // last run answered, else that run's input once more; the input is not logged again either way.
    const repeated = given.input.length === 0;
    if (
      repeated &&
      this.#lastStatus.get(session) !== "failed" &&
      this.#lastStatus.get(session) !== "incomplete"
    )
      return this.#lastAnswer(given, history);
    const request = repeated ? { ...given, input: lastLoggedInput(history) } : given;
    const label = lastText(request.input);
    this.#enter(session, label);
    try {
      const at = new Date().toISOString();
      if (history.length === 0) {
        await this.#sessions.append(request.agentId, request.sessionKey, {
          type: "session",
          version: 1,
          agentId: request.agentId,
          sessionKey: request.sessionKey,
          ...(request.keyId === undefined ? {} : { keyId: request.keyId }),
          at,
        });
      }
      if (!repeated)
        await this.#sessions.append(request.agentId, request.sessionKey, {
          type: "user-input",
          items: request.input,
          at,
        });
      const emit = this.#emitEvents ? request.onEvent : undefined;
      const runId = `run-${this.requests.length}`;
      emit?.({
        type: "run-start",
        runId,
        agentId: request.agentId,
        sessionKey: request.sessionKey,
        model: MODEL,
      });
      const result = await this.#answer(request, label, emit).catch((error: unknown) => {
        this.#lastStatus.set(session, "failed");
        throw error;
      });
      this.#lastStatus.set(session, result.status);
      await this.#sessions.append(request.agentId, request.sessionKey, {
        type: "assistant-output",
        items: result.output,
        at,
      });
      // The calls handed to the client, as the real runner's summary records them.
      const handoffs = result.output.flatMap((item) => (item.type === "function_call" ? [item] : []));
      if (handoffs.length > 0) {
        await this.#sessions.append(request.agentId, request.sessionKey, {
          type: "run-summary",
          runId: result.runId,
          status: result.status,
          turns: 1,
          durationMs: 0,
          handoffs: handoffs.map(({ callId, name, arguments: args }) => ({ callId, name, arguments: args })),
          at,
        });
      }
      if (emit !== undefined) emitResult(result, emit, STREAMED_LABEL.test(label));
      return result;
    } finally {
      this.#leave(session, label);
    }
  }

  async #answer(
    request: RunRequest,
    label: string,
    emit: ((event: RunEvent) => void) | undefined,
  ): Promise<RunResult> {
    const base = {
      runId: `run-${this.requests.length}`,
      agentId: request.agentId,
      sessionKey: request.sessionKey,
      model: MODEL,
      usage: { inputTokens: 11, outputTokens: 7 },
    };
    const streamed = streamedAnswer(base, label, emit ?? (() => {}));
    if (streamed !== undefined) return streamed;
    if (label.startsWith("trickle:")) {
      emit?.({ type: "text-delta", runId: base.runId, turn: 1, delta: "first " });
      await this.#gate(label).promise;
      emit?.({ type: "text-delta", runId: base.runId, turn: 1, delta: "second" });
      emit?.({ type: "model-request-finish", runId: base.runId, turn: 1 });
      const text = "first second";
      return { ...base, status: "completed", output: [{ type: "message", role: "assistant", text }], text };
    }
    const last = request.input.at(-1);
    if (last?.type === "function_call_output") return this.#say(base, `tool said: ${last.output}`);
    if (label.startsWith("hold:")) {
      const aborted = new Promise<"aborted">((resolve) => {
        if (request.signal?.aborted === true) resolve("aborted");
        request.signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
      });
      const outcome = await Promise.race([this.#gate(label).promise, aborted]);
      if (outcome === "aborted") {
        return {
          ...base,
          status: "failed",
          output: [],
          text: "",
          error: { code: "CANCELLED", message: "cancelled" },
        };
      }
      return this.#say(base, `released ${label}`);
    }
    if (label.startsWith("exec:")) return this.#say(base, await this.#exec(request, label.slice(5)));
    if (label.startsWith("call:")) {
      const spec = label.slice("call:".length);
      const space = spec.indexOf(" ");
      this.#calls += 1;
      const call: ConversationItem = {
        type: "function_call",
        callId: `call_${this.#calls}`,
        name: space === -1 ? spec : spec.slice(0, space),
        arguments: space === -1 ? '{"city":"Paris"}' : spec.slice(space + 1),
      };
      return { ...base, status: "requires_action", output: [call], text: "" };
    }
    if (label.startsWith("fail:")) {
      const code = label.slice("fail:".length);
      const message = `${code} went wrong at the provider\n    at Provider.complete (/app/dist/providers/x.js:10:5)\n    at run (/app/dist/runner/y.js:3:1)`;
      return { ...base, status: "failed", output: [], text: "", error: { code, message } };
    }
    if (label === "throw") throw new Error("runner exploded at /secret/path/runner.js:42:7");
    if (label.startsWith("throw:")) {
      const code = label.slice("throw:".length);
      throw Object.assign(new Error(`${code}: too many open files, open '/state/sessions/x.jsonl'`), {
        code,
      });
    }
    if (label === "cut") {
      const output: ConversationItem[] = [{ type: "message", role: "assistant", text: "partial" }];
      return {
        ...base,
        status: "incomplete",
        output,
        text: "partial",
        error: { code: "TURN_LIMIT", message: "limit" },
      };
    }
    return this.#say(base, `echo: ${label}`);
  }

  /** One `exec` call through the executor pipeline, approval step included. */
  async #exec(request: RunRequest, command: string): Promise<string> {
    const approvals = this.#approvals;
    const executor = createExecutor({
      isAvailable: () => true,
      ...(approvals === undefined
        ? {}
        : {
            hooks: {
              requestApproval: (event) =>
                approvals.requestApproval({
                  ...event,
                  agentId: request.agentId,
                  sessionKey: request.sessionKey,
                  ...(request.keyId === undefined ? {} : { keyId: request.keyId }),
                }),
            },
          }),
    });
    const args = { command, apiKey: "sk-fake-approval-secret-0123456789" };
    try {
      const result = await executor.execute(EXEC_ENTRY, args, {
        surface: "direct",
        toolCallId: "call_exec",
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      return `exec said: ${result.content.map((part) => (part.type === "text" ? part.text : "")).join("")}`;
    } catch (error) {
      // The executor rejects a blocked call with BLOCKED; a runner turns that into the model's tool result.
      if (isToolsiftError(error))
        return `exec ${error.code === "BLOCKED" ? "blocked" : "failed"}: ${error.message}`;
      throw error;
    } finally {
      executor.close();
    }
  }

  #lastAnswer(request: RunRequest, history: readonly SessionEvent[]): RunResult {
    const answer = history.findLast((event) => event.type === "assistant-output");
    const output = answer?.type === "assistant-output" ? answer.items : [];
    const text = output.flatMap((item) => (item.type === "message" ? [item.text] : [])).join("\n");
    const status = output.some((item) => item.type === "function_call") ? "requires_action" : "completed";
    const result: RunResult = {
      runId: `run-${this.requests.length}`,
      agentId: request.agentId,
      sessionKey: request.sessionKey,
      model: MODEL,
      usage: { inputTokens: 0, outputTokens: 0 },
      status,
      output,
      text,
    };
    const emit = this.#emitEvents ? request.onEvent : undefined;
    if (emit !== undefined) {
      const { runId, agentId, sessionKey, model } = result;
      emit({ type: "run-start", runId, agentId, sessionKey, model });
      emitResult(result, emit, false);
    }
    return result;
  }

  #say(base: Omit<RunResult, "status" | "output" | "text">, text: string): RunResult {
    return { ...base, status: "completed", output: [{ type: "message", role: "assistant", text }], text };
  }

  #enter(session: string, label: string): void {
    this.timeline.push(`start:${label}`);
    this.#active += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.#active);
    const inSession = (this.#activeBySession.get(session) ?? 0) + 1;
    this.#activeBySession.set(session, inSession);
    this.maxConcurrentPerSession = Math.max(this.maxConcurrentPerSession, inSession);
    this.#startedGate(label).resolve();
    this.#onStart?.(label);
  }

  #leave(session: string, label: string): void {
    this.timeline.push(`end:${label}`);
    this.#active -= 1;
    this.#activeBySession.set(session, (this.#activeBySession.get(session) ?? 1) - 1);
  }

  #gate(label: string): Deferred {
    let gate = this.#gates.get(label);
    if (gate === undefined) {
      gate = deferred();
      this.#gates.set(label, gate);
    }
    return gate;
  }

  #startedGate(label: string): Deferred {
    let gate = this.#started.get(label);
    if (gate === undefined) {
      gate = deferred();
      this.#started.set(label, gate);
    }
    return gate;
  }
}

/** The model every FakeRunner run reports. */
const MODEL = "mock/scripted";

/** The partial text of `fail-after-text` / `throw-after-text`. */
const PARTIAL_TEXT = "partial answer";

/** Labels whose text `streamedAnswer` already told as it answered. */
const STREAMED_LABEL = /^(deltas|turns|fail-after-text|trickle):/u;

type ResultBase = Omit<RunResult, "status" | "output" | "text">;

/** The answers of the labels only an event-emitting FakeRunner knows; undefined for the other labels. */
function streamedAnswer(
  base: ResultBase,
  label: string,
  emit: (event: RunEvent) => void,
): RunResult | undefined {
  const { runId } = base;
  if (label.startsWith("deltas:")) {
    const parts = label.slice("deltas:".length).split("|");
    for (const delta of parts) emit({ type: "text-delta", runId, turn: 1, delta });
    emit({ type: "model-request-finish", runId, turn: 1 });
    const text = parts.join("");
    return { ...base, status: "completed", output: [{ type: "message", role: "assistant", text }], text };
  }
  if (label.startsWith("turns:")) {
    const parts = label.slice("turns:".length).split("|");
    parts.forEach((delta, index) => {
      emit({ type: "text-delta", runId, turn: index + 1, delta });
      emit({ type: "model-request-finish", runId, turn: index + 1 });
    });
    const output: ConversationItem[] = parts.map((text) => ({ type: "message", role: "assistant", text }));
    return { ...base, status: "completed", output, text: parts.join("\n") };
  }
  if (label.startsWith("fail-after-text:") || label === "throw-after-text") {
    emit({ type: "text-delta", runId, turn: 1, delta: PARTIAL_TEXT });
    emit({ type: "model-request-finish", runId, turn: 1 });
    if (label === "throw-after-text") throw new Error("runner exploded at /secret/path/runner.js:42:7");
    const code = label.slice("fail-after-text:".length);
    const output: ConversationItem[] = [{ type: "message", role: "assistant", text: PARTIAL_TEXT }];
    const error = { code, message: `${code}: the provider failed after a partial answer` };
    return { ...base, status: "failed", output, text: PARTIAL_TEXT, error };
  }
  return undefined;
}

/**
 * The events of a finished run's result that were not told yet: a message whole per turn (unless the label
 * already streamed it), the client calls handed back, then run-finish.
 */
/** The items of the last logged user input (what a repeated request runs again). */
function lastLoggedInput(history: readonly SessionEvent[]): ConversationItem[] {
  const input = history.findLast((event) => event.type === "user-input");
  return input?.type === "user-input" ? input.items : [];
}

function emitResult(result: RunResult, emit: (event: RunEvent) => void, streamedAlready: boolean): void {
  const { runId } = result;
  let turn = 0;
  for (const item of result.output) {
    if (item.type !== "message" || streamedAlready) continue;
    turn += 1;
    emit({ type: "text-delta", runId, turn, delta: item.text });
    emit({ type: "model-request-finish", runId, turn });
  }
  const calls = result.output.filter((item) => item.type === "function_call");
  if (calls.length > 0) emit({ type: "model-request-finish", runId, turn: turn + 1 });
  for (const call of calls) {
    emit({
      type: "tool-call-handoff",
      runId,
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
    });
  }
  emit({ type: "run-finish", result });
}

/** A core `exec` tool that only reports what it would run. */
const EXEC_ENTRY: CatalogEntry = (() => {
  const entry = toCatalogEntry({
    name: "exec",
    description: "Run a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    execute: async (args) => ({
      content: [{ type: "text", text: `ran ${String((args as { command?: unknown }).command)}` }],
    }),
  });
  if (entry === undefined) throw new Error("the exec test tool is not a valid catalog entry");
  return entry;
})();

function lastText(items: readonly ConversationItem[]): string {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item?.type === "message" && item.role === "user") return item.text;
  }
  return "";
}
