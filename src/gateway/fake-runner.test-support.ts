import type { ApprovalBroker } from "../approvals/index.js";
import { type CatalogEntry, toCatalogEntry } from "../catalog/index.js";
import { isToolsiftError } from "../errors/index.js";
import { createExecutor } from "../execution/index.js";
import type { ConversationItem } from "../providers/index.js";
import type { EffectiveSurface, Runner, RunRequest, RunResult } from "../runner/index.js";
import type { SessionStore } from "../sessions/index.js";

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
 * - `call:<tool>` calls that client tool (requires_action);
 * - `fail:<CODE>` fails with that code and a message carrying stack-like lines;
 * - `throw` throws an Error (a runner bug); `cut` ends incomplete (TURN_LIMIT);
 * - `exec:<command>` calls a core `exec` tool through the real executor, whose approval step asks the
 *   `approvals` broker (when given): answers `exec said: ran <command>` or `exec blocked: <message>`;
 * - a `function_call_output` is answered `tool said: <output>`; anything else `echo: <text>`.
 * Every run writes real session events, and the runner records overlap per session and overall.
 */
export class FakeRunner implements Runner {
  readonly requests: RunRequest[] = [];
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
  #active = 0;
  #calls = 0;

  readonly #onStart: ((label: string) => void) | undefined;
  readonly #approvals: ApprovalBroker | undefined;

  constructor(
    sessions: SessionStore,
    options: { agents?: string[]; onStart?: (label: string) => void; approvals?: ApprovalBroker } = {},
  ) {
    this.#sessions = sessions;
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

  async run(request: RunRequest): Promise<RunResult> {
    this.requests.push(request);
    const session = `${request.agentId}/${request.sessionKey}`;
    const label = lastText(request.input);
    this.#enter(session, label);
    try {
      const history = await this.#sessions.read(request.agentId, request.sessionKey);
      const at = new Date().toISOString();
      if (history.length === 0) {
        await this.#sessions.append(request.agentId, request.sessionKey, {
          type: "session",
          version: 1,
          agentId: request.agentId,
          sessionKey: request.sessionKey,
          at,
        });
      }
      await this.#sessions.append(request.agentId, request.sessionKey, {
        type: "user-input",
        items: request.input,
        at,
      });
      const result = await this.#answer(request, label);
      await this.#sessions.append(request.agentId, request.sessionKey, {
        type: "assistant-output",
        items: result.output,
        at,
      });
      return result;
    } finally {
      this.#leave(session, label);
    }
  }

  async #answer(request: RunRequest, label: string): Promise<RunResult> {
    const base = {
      runId: `run-${this.requests.length}`,
      agentId: request.agentId,
      sessionKey: request.sessionKey,
      model: "mock/scripted",
      usage: { inputTokens: 11, outputTokens: 7 },
    };
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
      const name = label.slice("call:".length);
      this.#calls += 1;
      const call: ConversationItem = {
        type: "function_call",
        callId: `call_${this.#calls}`,
        name,
        arguments: '{"city":"Paris"}',
      };
      return { ...base, status: "requires_action", output: [call], text: "" };
    }
    if (label.startsWith("fail:")) {
      const code = label.slice("fail:".length);
      const message = `${code} went wrong at the provider\n    at Provider.complete (/app/dist/providers/x.js:10:5)\n    at run (/app/dist/runner/y.js:3:1)`;
      return { ...base, status: "failed", output: [], text: "", error: { code, message } };
    }
    if (label === "throw") throw new Error("runner exploded at /secret/path/runner.js:42:7");
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
