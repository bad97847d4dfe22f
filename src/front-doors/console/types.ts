import type { Context } from "hono";
import type { LogRingReader } from "../../runtime/environment/index.js";
import type { Caller, ClientAddressReader } from "../../runtime/http-guard/index.js";
import type { ConsoleSessionStore } from "../../runtime/state/index.js";

/** What the sessions page asks for: one page, newest first, narrowed by agent and by text in the session's name. */
export type ConsoleSessionQuery = {
  agent?: string;
  /** Case-insensitive text the session's name (as the caller knows it) or its agent must contain. */
  text?: string;
  /** The `last_id` of the previous page. */
  after?: string;
  /** Admin only: the key that owns the session (its namespace), as the admin's listing shows it. */
  key?: string;
  /** The last run's status: `running`, `completed`, `requires_action`, `failed`, `incomplete`. */
  status?: string;
  /** Text the user's input or the model's output contains (searched in the logs, bounded per page). */
  contains?: string;
};

/**
 * What the console reads and decides through: the gateway's own route logic with the same key checks, so a
 * key sees in the console exactly what it sees through `/v1/sessions` and `/v1/approvals` (on every gateway
 * of a fleet, since those read the shared state). Failures are the gateway's errors (404 for another key's
 * session or approval, 403 for a missing scope), rendered by the gateway.
 */
export type ConsoleBackend = {
  /** A request's JSON body within `maxBytes` (413 past it, 400 when not JSON), as the gateway reads bodies. */
  readJson(c: Context, maxBytes: number): Promise<unknown>;
  /** The key a pasted token belongs to; undefined when it is no key's. */
  identify(token: string): Caller | undefined;
  /**
   * The caller a console session's key id stands for now, by the gateway's keys (their scopes and agents as
   * configured now); undefined when no key has that id any more. Without keys: the trusted loopback caller
   * for its own id (`local`), nothing else.
   */
  callerFor(keyId: string): Caller | undefined;
  /** True when the gateway has keys (a login is needed); false for the trusted loopback caller. */
  keyed: boolean;
  /** The agents the caller may run (the filter's choices). */
  agents(caller: Caller): string[];
  /** One page of the caller's sessions (`GET /v1/sessions`' answer). Needs `sessions:read`. */
  listSessions(caller: Caller, query: ConsoleSessionQuery): Promise<unknown>;
  /** One of the caller's sessions with its events (`GET /v1/sessions/:key`' answer). Needs `sessions:read`. */
  readSession(caller: Caller, agentId: string, sessionKey: string): Promise<unknown>;
  /**
   * The gateway's health as `/healthz` answers it (storage, draining, providers), for any signed-in key; the
   * storage reason names where and why only for an admin.
   */
  health(caller: Caller): Promise<unknown>;
  /**
   * The health page beyond `/healthz`: each MCP server (status, tools, last error) and the doctor's checks that
   * apply to a running gateway, for any signed-in key; errors, messages and fixes only for an admin.
   */
  healthChecks(caller: Caller): Promise<unknown>;
  /**
   * The recent lines of the gateway's log (the Logs page), already redacted. Admin only (403
   * `insufficient_scope` otherwise); absent when the gateway keeps no lines.
   */
  logs?(caller: Caller): LogRingReader;
  /** The tools a run of the agent would get (`GET /v1/tools/effective`' answer). Needs `runs` and the agent. */
  tools(caller: Caller, agentId: string): Promise<unknown>;
  /**
   * One chat turn (`POST /console/api/chat`, body `{ agent, session?, input }` read here within the gateway's
   * body cap) run through the same path as `POST /v1/responses` (`queueRun`, `openRunStream`): its frames as
   * they happen. Refusals before the run started (scope, agent, 429, 503) throw, as the API answers them.
   * Needs `runs` and the agent.
   */
  chat(c: Context, caller: Caller): Promise<ConsoleChat>;
  /**
   * What `tool_search` would answer a run of the agent for `look`, one query or a batch (`Runner.searchTools`: the output the model
   * reads and the request bytes). Needs `runs` and the agent.
   */
  searchTools(
    caller: Caller,
    agentId: string,
    look: { query: string; limit?: number } | { queries: Array<{ query: string; limit?: number }> },
  ): Promise<unknown>;
  /** What `tool_describe` would answer a run of the agent for `id`; 404 for a tool it does not know. Needs `runs` and the agent. */
  describeTool(caller: Caller, agentId: string, id: string): Promise<unknown>;
  /**
   * Tells `listener` of changes made through this process (an append to a session, by its stored key; the
   * pending approvals changed), so a live stream reads again at once; changes made elsewhere are seen by
   * re-reading. Returns what stops the telling. Optional: without it, streams only re-read.
   */
  watch?(listener: (change: ConsoleChange) => void): () => void;
  /** The pending approvals the caller may decide (`GET /v1/approvals`' answer); absent without a broker. */
  approvals?: {
    pending(caller: Caller): Promise<unknown>;
    decide(caller: Caller, id: string, body: unknown): Promise<unknown>;
  };
};

/** A chat turn that started: the agent and session (the name the key knows it by) and its frames. */
export type ConsoleChat = { agent: string; session: string; frames: AsyncGenerator<ConsoleChatFrame> };

/**
 * What the chat page draws, one JSON object per line (NDJSON): the run's start, text as it arrives, each
 * call as it starts (`tool_search`, `tool_describe`, `tool_call` with its target in `arguments.id`, or a
 * direct tool) and finishes, each search's queries, approvals of this session waiting and closed, an error,
 * and the end with the run's status. Every string in it is untrusted text.
 */
export type ConsoleChatFrame =
  | { type: "start"; agent: string; session: string; runId: string; model: string }
  | { type: "text"; delta: string }
  | { type: "call"; callId: string; name: string; arguments: unknown; toolId?: string; source?: string }
  | {
      type: "result";
      callId: string;
      name: string;
      isError: boolean;
      output: string;
      toolId?: string;
      source?: string;
    }
  | { type: "search"; callId: string; queries: string[]; hits: number }
  | {
      type: "approval";
      id: string;
      toolId: string;
      toolName: string;
      /** Redacted as `GET /v1/approvals` shows them. */
      args: unknown;
      expiresAt: string;
    }
  | { type: "approval-closed"; id: string }
  | { type: "error"; code: string; message: string }
  | { type: "end"; status: string; error?: { code: string; message: string } };

/** A change `ConsoleBackend.watch` tells of. */
export type ConsoleChange = { kind: "session"; agentId: string; sessionKey: string } | { kind: "approvals" };

/** Options of `createConsoleRoutes`. */
export type ConsoleOptions = {
  backend: ConsoleBackend;
  /** Receives one line per login, failed login and logout (key id only, never a token). */
  log: (line: string) => void;
  /**
   * Where console sessions live (`StateStore.consoleSessions`: a fleet's database shares them). Default: this
   * process's memory.
   */
  sessions?: ConsoleSessionStore;
  /**
   * The client address of a request, which the login and page-open limits count (the gateway's reader
   * trusts `gateway.trustedProxies`' `X-Forwarded-For`). Default: the TCP peer's address.
   */
  clientAddress?: ClientAddressReader;
  /** The clock of the default session store and of the login rate limit (tests). Default `Date.now`. */
  now?: () => number;
  /** Bounds of the Logs page's live tail (tests). Default: see `LOG_STREAM_*` in `log-routes.ts`. */
  logStreams?: { heartbeatMs?: number; maxOpen?: number };
};
