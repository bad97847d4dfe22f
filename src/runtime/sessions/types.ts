import type { ConversationItem } from "../providers/index.js";
import type { SessionPage, SessionPageOptions } from "./page-sessions.js";
import type { StorageStatus } from "./probe-state-dir.js";

/** Every event line of a session log carries these. */
interface EventBase {
  /** ISO 8601 time the event was written. */
  at: string;
  /** The run that wrote it (absent on the header). */
  runId?: string;
}

/** One line of a session log (`$TOOLSIFT_STATE_DIR/agents/<agentId>/sessions/<sessionKey>.jsonl`). */
export type SessionEvent =
  | (EventBase & {
      type: "session";
      version: 1;
      agentId: string;
      sessionKey: string;
      /** The client key that opened the session (`gateway.auth.keys[].id`); absent when no key did. */
      keyId?: string;
    })
  | (EventBase & {
      type: "user-input";
      items: ConversationItem[];
      /** Hosted tool types the client declared that toolsift cannot run, left out of the model's request. */
      omittedHostedTools?: string[];
    })
  | (EventBase & {
      type: "model-request";
      provider: string;
      model: string;
      /** Declared tool names, in order, and their count. */
      declaredTools: string[];
      declaredToolCount: number;
      systemPromptChars: number;
      requestBytes: number;
      /**
       * Token usage as the provider reported it; `cacheReadInputTokens` / `cacheCreationInputTokens` when it
       * reports prompt-cache reads and writes (included in `inputTokens`).
       */
      usage?: {
        inputTokens: number;
        outputTokens: number;
        cacheReadInputTokens?: number;
        cacheCreationInputTokens?: number;
      };
      /** Set when history was trimmed to fit the context window: items dropped or shortened, characters left out. */
      trimmed?: { items: number; chars: number };
    })
  | (EventBase & { type: "assistant-output"; items: ConversationItem[] })
  | (EventBase & {
      type: "tool-result";
      callId: string;
      name: string;
      /** For controls and catalog tools: the entry id and source the call resolved to. */
      toolId?: string;
      source?: "native" | "mcp" | "client";
      isError: boolean;
      /** The output as sent back to the model (bounded, redacted). */
      output: string;
    })
  | (EventBase & {
      /** Display-only evidence of the real target call behind a `tool_call`: skipped on replay. */
      type: "target-activity";
      parentCallId: string;
      toolId: string;
      name: string;
      source: "native" | "mcp" | "client";
      arguments: unknown;
      result: string;
      isError: boolean;
    })
  | (EventBase & {
      /** Display-only: how a call that waited for approval was settled (skipped on replay). */
      type: "approval";
      /** The model's call id of the call that asked (a `tool_call`'s, for a target behind it). */
      callId?: string;
      /** The approval request's id (`appr_…`). */
      approvalId: string;
      toolId: string;
      name: string;
      verdict: "allow" | "deny";
      /** `allowed by the operator: …`, `denied by the operator`, `timed out`, `cancelled`, `closed`, … */
      outcome: string;
      /** The key that decided (`gateway.auth.keys[].id`); absent for a timeout, a cancel or a shutdown. */
      decidedBy?: string;
      /** The operator's note (redacted like every line). */
      note?: string;
      requestedAt: string;
      decidedAt: string;
    })
  | (EventBase & {
      type: "run-summary";
      status: "completed" | "requires_action" | "failed" | "incomplete";
      turns: number;
      durationMs: number;
      telemetry?: unknown;
      error?: string;
      /**
       * The client tool calls the run handed to its client, as the client saw them (name and arguments of
       * the client tool, the model's call id), in order; absent when none. The gateway matches a client's
       * resent history against them, and answers a repeated request with them.
       */
      handoffs?: Array<{ callId: string; name: string; arguments: string }>;
    });

/** Where sessions live: one implementation on disk, others possible. */
export interface SessionStore {
  /** Appends one event as one whole line (redacted), serialised per session, flushed before resolving. */
  append(agentId: string, sessionKey: string, event: SessionEvent): Promise<void>;
  /** Every readable event of a session, oldest first; a torn last line is skipped. [] when missing. */
  read(agentId: string, sessionKey: string): Promise<SessionEvent[]>;
  /** Every session, most recently written first. */
  list(): Promise<Array<{ agentId: string; sessionKey: string; updatedAt: string; bytes: number }>>;
  /**
   * One page of sessions, newest created first (see pageSessions). Optional: `listSessionPage` pages a
   * store without it over `list()`.
   */
  listPage?(options: SessionPageOptions): Promise<SessionPage>;
  /**
   * Tells `listener` after each append of this process went through, and, for a store shared by processes
   * that announce their appends (PostgreSQL), after theirs as they are heard of (an announcement can be lost
   * while the store's connection is down: a reader that must see every change also re-reads now and then).
   * Returns what stops the telling. Optional.
   */
  onAppended?(listener: (agentId: string, sessionKey: string) => void): () => void;
  /**
   * Whether appends can be written now (for `/healthz`), with the reason when not; cheap to call often.
   * Optional: a store without it is taken as writable.
   */
  probeWritable?(): Promise<StorageStatus>;
}
