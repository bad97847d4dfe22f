import type { ApprovalLedger } from "../approvals/index.js";

export type { ApprovalLedger, ApprovalSettlement } from "../approvals/index.js";

import type { PruneReport, SessionRetention, SessionStore, StorageStatus } from "../sessions/index.js";

/** Where a response was produced: the session its follow-ups continue. */
export type ResponseOrigin = { agentId: string; sessionKey: string };

/**
 * Stored responses: which agent and session produced each response id (so `previous_response_id` continues
 * that session), and the response body for `GET /v1/responses/:id`. `remember` resolves once the record is
 * durable where the store keeps it; a database fault rejects with STORAGE_UNAVAILABLE.
 */
export interface ResponseStore {
  /** Records the origin of `responseId`, and its body when given (`store: false`: no body). */
  remember(responseId: string, origin: ResponseOrigin, body?: unknown): Promise<void>;
  /** The origin of `responseId`, or undefined when unknown or forgotten. */
  lookup(responseId: string): Promise<ResponseOrigin | undefined>;
  /** A fresh copy of the stored body of `responseId`, or undefined when none is kept. */
  stored(responseId: string): Promise<unknown>;
}

/** How many runs are executing and how many wait behind another run of their session (in this process). */
export type QueueStats = { running: number; queued: number };

/** Refusal of a run whose session already has `maxQueuedPerSession` runs waiting (the gateway's 429). */
export class SessionQueueFullError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} already has as many runs waiting as allowed`);
    this.name = "SessionQueueFullError";
  }
}

/**
 * Serialises runs per session: a run starts only after every earlier run of its session settled; runs of
 * different sessions run concurrently. With a shared store the order holds across every process on it.
 */
export interface SessionRunQueue {
  /**
   * Runs `task` after the earlier runs of `sessionId`; resolves or rejects as the task does. Rejects with
   * SessionQueueFullError, before queuing, when `maxQueuedPerSession` runs already wait; when `signal`
   * aborts before the task's turn, rejects with the signal's reason and the task never starts.
   */
  run<T>(sessionId: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Current counts, for observability and tests. */
  stats(): QueueStats;
}

/**
 * One browser's console session as a store keeps it: the cookie's id, the CSRF token, and the id of the key it
 * signed in with (undefined while it waits for a login). Never a token or a key's scopes: the gateway turns the
 * key id back into the caller at every request, so a key removed from the config or given other scopes takes
 * effect at once.
 */
export type ConsoleSessionRecord = {
  readonly id: string;
  readonly csrf: string;
  readonly keyId: string | undefined;
};

/**
 * The operator console's sessions. Bounded twice: sessions waiting for a login (anyone can open one) are kept
 * apart from signed-in ones (only a key's holder can make one), so opening pages never signs anyone out:
 * `MAX_PENDING_LOGINS` waiting (the oldest dropped past it), `MAX_CONSOLE_SESSIONS` signed in (the least
 * recently used dropped), at most `MAX_CONSOLE_SESSIONS_PER_KEY` of one key (its own least recently used
 * dropped, so no key's holder signs the others out by signing in again and again). A waiting session ends
 * `PENDING_LOGIN_MS` after it was opened; a signed-in one after `CONSOLE_IDLE_MS` unused or
 * `CONSOLE_MAX_AGE_MS` in all. With a shared store every gateway of a fleet finds every session.
 */
export interface ConsoleSessionStore {
  /** A new session with a random id and CSRF token; with `keyId`, signed in as that key. */
  open(keyId?: string): Promise<ConsoleSessionRecord>;
  /** The live session `id` names, marked used now; undefined when unknown, closed or expired. */
  find(id: string | undefined): Promise<ConsoleSessionRecord | undefined>;
  /**
   * True while `id` names a live signed-in session; unlike `find`, asking is not use (a live log tail asks
   * while it runs, and must not keep its session from going idle).
   */
  isSignedIn(id: string): Promise<boolean>;
  /** Ends a session (a logout, the waiting session a login replaces, a key no longer configured). */
  close(id: string): Promise<void>;
}

/**
 * Everything a gateway keeps beyond one request: session logs, stored responses, pending approvals, console
 * sessions and the per-session run order. Files and memory by default (one process); PostgreSQL with
 * `state.url` (a fleet).
 */
export interface StateStore {
  /** `files`: JSONL files and this process's memory; `postgres`: the database at `state.url`. */
  readonly kind: "files" | "postgres";
  /** A description for logs and `/healthz` (the state directory, or the database URL without password). */
  readonly where: string;
  readonly sessions: SessionStore;
  readonly responses: ResponseStore;
  readonly approvals: ApprovalLedger;
  /** The operator console's sessions (this process's memory, or the database a fleet shares). */
  readonly consoleSessions: ConsoleSessionStore;
  /** A run queue with at most `maxQueuedPerSession` runs waiting per session. */
  createRunQueue(options: { maxQueuedPerSession: number }): SessionRunQueue;
  /**
   * Applies `sessions.retention`: removes the oldest sessions (never one written in the last hour) past
   * the age or total size, with their stored responses where the store keeps those.
   */
  prune(retention: SessionRetention): Promise<PruneReport>;
  /** Whether the store takes writes now (cached briefly), with the reason when not. */
  probe(): Promise<StorageStatus>;
  /** Releases connections, timers and this process's runs' claims. Idempotent. */
  close(): Promise<void>;
}
