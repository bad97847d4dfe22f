import type { ConversationItem } from "../../../runtime/providers/index.js";
import type { ClientToolDeclaration } from "../../../runtime/runner/index.js";
import { invalidRequest } from "../gateway-error.js";
import type { SessionHints } from "../session-hints.js";
import type { ClientCallForms } from "./client-call-form.js";

/** A run request as read from either API, before the agent and session are resolved. */
export type TurnRequest = {
  /** The request field holding the conversation (`input` or `messages`), for error messages. */
  inputParam: "input" | "messages";
  /** Conversation items as the client sent them (a client may resend history: see `reconcile-history.ts`). */
  items: ConversationItem[];
  /** `instructions` and every system/developer message, joined by blank lines; absent when none. */
  instructions?: string;
  clientTools: ClientToolDeclaration[];
  /** Responses only: how calls of renamed (namespaced) and custom client tools go back. Default: plain functions. */
  callForms?: ClientCallForms;
  /** Hosted tool types declared that toolsift cannot run, left out of the model's request (`gateway.hostedTools`). */
  omittedHostedTools?: string[];
  maxOutputTokens?: number;
  /** Responses API only. */
  previousResponseId?: string;
  /** The client's `model`: `toolsift` or `toolsift/<agentId>` picks the agent; the agent's configured model answers. */
  model?: string;
  /** Responses `store`: false keeps the response out of `GET /v1/responses/:id`. Default true. */
  store?: boolean;
  /** `stream: true`: the answer is sent as server-sent events (`responses-stream.ts`, `chat-stream.ts`). */
  stream?: boolean;
  /** Chat `stream_options.include_usage`: a last chunk carries the usage. Default false. */
  includeUsage?: boolean;
  /** What the raw request says about its conversation (`session-hints.ts`); default none. */
  sessionHints?: SessionHints;
  /**
   * The agent and session a front door names itself (the console's chat), read in place of the
   * `x-toolsift-agent` / `x-toolsift-session` headers, with the same checks.
   */
  namedTarget?: { agent: string; session: string };
};

/** Joins instruction texts with blank lines; undefined when there is no non-blank text. */
export function joinInstructions(texts: readonly string[]): string | undefined {
  const kept = texts.filter((text) => text.trim().length > 0);
  return kept.length === 0 ? undefined : kept.join("\n\n");
}

/** The refusal of a conversation that has nothing for the agent to answer, after the field's name. */
export const NOTHING_TO_ANSWER =
  "has nothing to answer: send at least one user message or function_call_output.";

/** Refuses a request whose conversation has nothing for the agent to answer. */
export function requireTurnItems(items: readonly ConversationItem[], param: string): void {
  if (items.length === 0) throw invalidRequest(param, `${param} ${NOTHING_TO_ANSWER}`);
}
