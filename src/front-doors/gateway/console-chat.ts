import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import type { ApprovalBroker } from "../../runtime/approvals/index.js";
import type { Caller } from "../../runtime/http-guard/index.js";
import type { RunEvent } from "../../runtime/run-surface/index.js";
import { isObjectRecord } from "../../shared/schema/index.js";
import type { ConsoleChat, ConsoleChatFrame } from "../console/index.js";
import { visibleApprovals } from "./approval-routes.js";
import { requireAgentAllowed } from "./caller-access.js";
import {
  type ChatApproval,
  type ChatApprovalSource,
  type ChatApprovalWatch,
  watchChatApprovals,
} from "./console-chat-approvals.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError, invalidRequest } from "./gateway-error.js";
import { type OpenRunStream, openRunStream } from "./open-run-stream.js";
import { readJsonBody } from "./request/read-json-body.js";
import type { TurnRequest } from "./request/turn-request.js";
import { requireKnownAgent } from "./resolve-run-target.js";
import { readAgentId, readSessionKey } from "./run-target.js";

/** What a chat turn asks for: the agent, the session's name (a new one when absent) and the user's text. */
type ChatRequest = { agent: string; session: string; input: string };

/**
 * One console chat turn, through the same run path as `POST /v1/responses`: the body is read within the
 * gateway's body cap, the agent checked as for a run (known, and one the key may use), and the run opened by
 * `openRunStream` (so `resolveRunTarget`, the key's session namespace, the session's queue and its 429, the
 * drain's 503, storage's 503 and the client-disconnect cancellation are the API's own) for the signed-in
 * `caller`, with the agent and session the body names. Its events become the chat page's frames; while a
 * call runs, the session's pending approvals (as `GET /v1/approvals` shows them to the key) are read when the
 * broker tells of a change (`watchChatApprovals`), so the page can decide them inline. The caller's `runs` scope is checked by the backend before this.
 */
export async function consoleChat(
  gateway: GatewayContext,
  approvals: ApprovalBroker | undefined,
  c: Context,
  caller: Caller,
): Promise<ConsoleChat> {
  const chat = readChatRequest(await readJsonBody(c, gateway.maxBodyBytes));
  requireKnownAgent(gateway, chat.agent, "agent");
  requireAgentAllowed(caller, chat.agent, "agent");
  // The run path reads its caller from the request: this request's caller is the console's signed-in key; the
  // agent and session are the ones the body names (in place of the run headers).
  c.set("caller", caller);
  const request: TurnRequest = {
    inputParam: "input",
    items: [{ type: "message", role: "user", text: chat.input }],
    clientTools: [],
    stream: true,
    namedTarget: { agent: chat.agent, session: chat.session },
  };
  const stream = await openRunStream(c, gateway, request);
  const watch: ChatApprovalSource | undefined =
    approvals === undefined
      ? undefined
      : {
          read: () => pendingOfSession(approvals, caller, stream),
          onChange: (listener) => approvals.onChange(listener),
        };
  return {
    agent: stream.target.agentId,
    session: stream.target.sessionName,
    frames: chatFrames(stream, watch, gateway),
  };
}

/** The approvals waiting in the chat's session that the caller may decide, as the approvals API shows them. */
async function pendingOfSession(
  approvals: ApprovalBroker,
  caller: Caller,
  stream: OpenRunStream,
): Promise<ChatApproval[]> {
  const { agentId, sessionName } = stream.target;
  return (await visibleApprovals(approvals, caller))
    .filter((pending) => pending.agentId === agentId && pending.sessionKey === sessionName)
    .map((pending) => ({
      type: "approval",
      id: pending.id,
      toolId: pending.toolId,
      toolName: pending.toolName,
      args: pending.args,
      expiresAt: pending.expiresAt,
    }));
}

/**
 * The frames of one chat run as its events arrive, with approvals of its session announced while a call is
 * in flight. A reader that stops (the page's fetch was aborted) stops reading the run's events, which aborts
 * the run's one signal; the client's disconnect has already aborted it (`runCancellation`).
 */
async function* chatFrames(
  stream: OpenRunStream,
  watch: ChatApprovalSource | undefined,
  gateway: GatewayContext,
): AsyncGenerator<ConsoleChatFrame> {
  const queue: ConsoleChatFrame[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let stopped = false;
  const push = (frames: ConsoleChatFrame[]) => {
    queue.push(...frames);
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const approvals = watchChatApprovals(watch, push);
  const pump = async () => {
    try {
      let ended = stream.first.type === "run-finish";
      push(eventFrames(stream.first, stream.target.sessionName, approvals));
      // Read to the stream's end (the run settles before it ends), unless the page stopped reading: leaving
      // the loop then returns the stream, which aborts the run's signal.
      for await (const event of stream.rest) {
        if (event.type === "run-finish") ended = true;
        push(eventFrames(event, stream.target.sessionName, approvals));
        if (stopped) return;
      }
      // streamRun always ends with run-finish; a stream that did not is closed with an error all the same.
      if (!ended) push([errorFrame(internalError()), { type: "end", status: "failed" }]);
    } catch (error) {
      push([
        errorFrame(
          error instanceof GatewayError ? error : gateway.reportInternal("in a console chat", error),
        ),
        { type: "end", status: "failed" },
      ]);
    } finally {
      approvals.stop();
      done = true;
      push([]);
    }
  };
  void pump();
  try {
    while (true) {
      const frame = queue.shift();
      if (frame !== undefined) {
        yield frame;
        continue;
      }
      if (done) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    stopped = true;
    approvals.stop();
  }
}

/** The page's frames for one run event; calls starting and finishing switch the approval watch on and off. */
function eventFrames(event: RunEvent, session: string, approvals: ChatApprovalWatch): ConsoleChatFrame[] {
  switch (event.type) {
    case "run-start":
      return [{ type: "start", agent: event.agentId, session, runId: event.runId, model: event.model }];
    case "text-delta":
      return [{ type: "text", delta: event.delta }];
    case "tool-call-start":
      approvals.callStarted(event.callId);
      return [
        {
          type: "call",
          callId: event.callId,
          name: event.name,
          arguments: event.arguments,
          ...attribution(event),
        },
      ];
    case "tool-call-finish":
      approvals.callFinished(event.callId);
      return [
        {
          type: "result",
          callId: event.callId,
          name: event.name,
          isError: event.isError,
          output: event.output,
          ...attribution(event),
        },
      ];
    case "search-finish":
      return [{ type: "search", callId: event.callId, queries: event.queries, hits: event.hits }];
    case "run-finish": {
      const { status, error } = event.result;
      return [{ type: "end", status, ...(error === undefined ? {} : { error }) }];
    }
    default:
      return [];
  }
}

function attribution(event: { toolId?: string; source?: string }): { toolId?: string; source?: string } {
  return {
    ...(event.toolId === undefined ? {} : { toolId: event.toolId }),
    ...(event.source === undefined ? {} : { source: event.source }),
  };
}

/** Reads `{ agent, session?, input }`: a known agent id, a session name (else a new one) and some text. */
function readChatRequest(body: unknown): ChatRequest {
  if (!isObjectRecord(body)) {
    throw invalidRequest(
      undefined,
      'send a JSON object: { "agent": "<agent id>", "session"?: "<name>", "input": "<text>" }.',
    );
  }
  const agent = readAgentId(stringField(body, "agent"), "agent");
  const session = readSessionKey(stringField(body, "session"), "session") ?? newSessionName();
  const input = body.input;
  if (typeof input !== "string" || input.trim() === "") {
    throw invalidRequest("input", "input must be the message to send: a non-empty string.");
  }
  return { agent, session, input };
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidRequest(name, `${name} must be a string when given.`);
  return value;
}

/** A new chat session's name: `chat-<UTC date and time>-<6 random hex>`, a valid session key. */
function newSessionName(): string {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/gu, "-");
  return `chat-${stamp}-${randomBytes(3).toString("hex")}`;
}

function errorFrame(error: GatewayError): ConsoleChatFrame {
  return { type: "error", code: error.apiCode ?? "error", message: error.message };
}

function internalError(): GatewayError {
  return new GatewayError(500, "the gateway hit an internal error; the detail is in the gateway log.", {
    code: "internal_error",
  });
}
