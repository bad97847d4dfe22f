import type { Context } from "hono";
import type { Caller } from "../../runtime/http-guard/index.js";

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
  /** The tools a run of the agent would get (`GET /v1/tools/effective`' answer). Needs `runs` and the agent. */
  tools(caller: Caller, agentId: string): Promise<unknown>;
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

/** A change `ConsoleBackend.watch` tells of. */
export type ConsoleChange = { kind: "session"; agentId: string; sessionKey: string } | { kind: "approvals" };

/** Options of `createConsoleRoutes`. */
export type ConsoleOptions = {
  backend: ConsoleBackend;
  /** Receives one line per login, failed login and logout (key id only, never a token). */
  log: (line: string) => void;
  /** The clock of the session store (tests). Default `Date.now`. */
  now?: () => number;
};
