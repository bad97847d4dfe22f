import { closeSync, constants, fstatSync, lstatSync, openSync, readFile, readFileSync } from "node:fs";
import { join } from "node:path";
import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { createAppendWatchers } from "./append-watchers.js";
import { createGroupCommit } from "./group-commit.js";
import { MAX_SYNC_SESSION_READ_BYTES, STATE_PROBE_CACHE_MS } from "./limits.js";
import { pageByContent } from "./page-by-content.js";
import { pageSessions } from "./page-sessions.js";
import { parseSessionLog, type SkippedSessionLine } from "./parse-session-log.js";
import { probeStateDir, type StorageStatus } from "./probe-state-dir.js";
import { createSessionFileWriter } from "./session-file-writer.js";
import { sessionLogPaths } from "./session-key.js";
import { sessionEventLine } from "./session-line.js";
import { statSessions } from "./stat-sessions.js";
import { createStorageFaultReporter } from "./storage-fault-reporter.js";
import { isStorageFault, STORAGE_FIX, storageUnavailable } from "./storage-unavailable.js";
import type { SessionStore } from "./types.js";

/**
 * Event types whose line is flushed to the disk (`datasync`) before `append` resolves: a run's summary, so a
 * completed run survives a power loss with every line before it. Other lines are written to the file at once
 * (a crash of the process loses none) and reach the disk with the next synced line or the kernel's writeback.
 */
const DURABLE_EVENT_TYPES: ReadonlySet<string> = new Set(["run-summary"]);

/** Options of createFileSessionStore. */
export interface FileSessionStoreOptions {
  /** Told about lines `read` skipped (torn or unparsable). Default: nothing is reported. */
  onSkippedLines?(report: {
    agentId: string;
    sessionKey: string;
    path: string;
    skipped: SkippedSessionLine[];
  }): void;
  /**
   * Told once when the state directory stops taking writes (an append or a probe failed: the line names the
   * directory, the reason and the fix), and once when it takes writes again. Default: nothing is reported.
   */
  onStorageFault?(line: string): void;
}

// O_NOFOLLOW is 0 where the platform has none; a symlinked log is then followed.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW;

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/**
 * True when `path` names nothing (or a part of it is a file): a new session's log, the common case at the
 * start of a run, answered by one synchronous lstat (microseconds) instead of a failed open. Any other
 * answer leaves it to the open.
 */
function surelyMissing(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    return errorCode(error) === "ENOTDIR";
  }
}

function readFileOnThreadPool(fd: number): Promise<string> {
  return new Promise((resolve, reject) => {
    readFile(fd, "utf8", (error, text) => (error ? reject(error) : resolve(text)));
  });
}

/**
 * The log's text, or undefined when there is none. A log up to MAX_SYNC_SESSION_READ_BYTES is opened and
 * read synchronously, as the writer writes it (it was written by the session's previous run, so it is in
 * the page cache, and parsing it costs more than reading it): each promise-form call is a thread-pool round
 * trip. A larger log is read on the thread pool.
 */
async function readText(path: string): Promise<string | undefined> {
  if (surelyMissing(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    // A state directory under a regular file holds no sessions (its appends fail as storage faults).
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
  try {
    if (fstatSync(fd).size <= MAX_SYNC_SESSION_READ_BYTES) return readFileSync(fd, "utf8");
    return await readFileOnThreadPool(fd);
  } finally {
    closeSync(fd);
  }
}

function storageError(action: string, path: string, error: unknown): ToolsiftError {
  if (error instanceof ToolsiftError) return error;
  return new ToolsiftError(
    "INTERNAL",
    `Could not ${action} session log ${path}: ${messageOf(error)}. Check that the state directory (TOOLSIFT_STATE_DIR) exists and is writable.`,
    { cause: error },
  );
}

/**
 * The on-disk SessionStore: one JSONL file per session at
 * `<stateDir>/agents/<agentId>/sessions/<sessionKey>.jsonl` (ids validated, see isValidSessionKey).
 * Each append redacts the event (redactSecrets) and serialises it at call time; lines for one file are
 * written by group commit (appends that queue while a write runs go out together, in call order, as one
 * write), and each append resolves only once its line is in the file; a `run-summary` line is also flushed
 * to the disk (`datasync`, covering every earlier line) before its append resolves. A file left ending in
 * a torn line gets a newline first, so the next event always starts its own line. `read` waits for appends
 * already queued, then parses (a torn or bad line is skipped, never fatal). Files are created 0600,
 * directories 0700; symlinked logs are refused. A state directory that cannot take writes (full, read-only,
 * not a directory) makes appends fail with STORAGE_UNAVAILABLE, leaves no empty log file behind, and is
 * reported once through `onStorageFault` until it takes writes again; `probeWritable` checks it for `/healthz`.
 */
export function createFileSessionStore(
  stateDir: string,
  options: FileSessionStoreOptions = {},
): SessionStore {
  const logPath = sessionLogPaths(stateDir);
  const watchers = createAppendWatchers();
  const writer = createSessionFileWriter();
  const commits = createGroupCommit((path, text, sync) => writer.append(path, text, sync));
  let probed: { at: number; status: Promise<StorageStatus> } | undefined;
  const statAll = async () => {
    try {
      return await statSessions(stateDir);
    } catch (error) {
      throw storageError("list", join(stateDir, "agents"), error);
    }
  };

  const faults = createStorageFaultReporter(
    options.onStorageFault,
    `the state directory ${stateDir} takes writes.`,
  );

  const store: SessionStore = {
    async append(agentId, sessionKey, event) {
      const path = logPath(agentId, sessionKey);
      const line = sessionEventLine(event);
      try {
        await commits.add(path, line, DURABLE_EVENT_TYPES.has(event.type));
      } catch (error) {
        if (!isStorageFault(error)) throw storageError("append to", path, error);
        const unavailable = storageUnavailable(stateDir, error);
        probed = undefined; // the next probe looks again rather than answer from before the failure
        faults.fault(unavailable.message);
        throw unavailable;
      }
      faults.writable();
      watchers.tell(agentId, sessionKey);
    },

    onAppended: (listener) => watchers.add(listener),

    probeWritable() {
      const now = Date.now();
      if (probed === undefined || now - probed.at >= STATE_PROBE_CACHE_MS) {
        const status = probeStateDir(stateDir).then((result) => {
          if (result.writable) faults.writable();
          else faults.fault(`${result.reason}. ${STORAGE_FIX}`);
          return result;
        });
        probed = { at: now, status };
      }
      return probed.status;
    },

    async read(agentId, sessionKey) {
      const path = logPath(agentId, sessionKey);
      await commits.idle(path);
      let text: string | undefined;
      try {
        text = await readText(path);
      } catch (error) {
        throw storageError("read", path, error);
      }
      if (text === undefined) return [];
      const { events, skipped } = parseSessionLog(text);
      if (skipped.length > 0) {
        try {
          options.onSkippedLines?.({ agentId, sessionKey, path, skipped });
        } catch {
          // A failing reporter must not make the log unreadable.
        }
      }
      return events;
    },

    async list() {
      const sessions = await statAll();
      sessions.sort((left, right) => {
        const byTime = right.updatedMs - left.updatedMs;
        if (byTime !== 0) return byTime;
        if (left.agentId !== right.agentId) return left.agentId < right.agentId ? -1 : 1;
        return left.sessionKey < right.sessionKey ? -1 : left.sessionKey > right.sessionKey ? 1 : 0;
      });
      return sessions.map(({ agentId, sessionKey, updatedMs, bytes }) => ({
        agentId,
        sessionKey,
        updatedAt: new Date(updatedMs).toISOString(),
        bytes,
      }));
    },

    async listPage(options) {
      const stats = await statAll();
      const { content, limit, ...rest } = options;
      if (content === undefined) return pageSessions(stats, options);
      // Every candidate past the cursor, in page order; their logs are read only as far as the page needs.
      const candidates = pageSessions(stats, { ...rest, limit: stats.length }).data;
      return pageByContent(candidates, limit, content, (batch) =>
        Promise.all(batch.map((session) => store.read(session.agentId, session.sessionKey))),
      );
    },
  };
  return store;
}
