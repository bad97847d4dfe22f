import { constants } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ToolsiftError } from "../errors/index.js";
import { SESSION_FILE_EXTENSION } from "./limits.js";
import { parseSessionLog, SESSION_EVENT_TYPES, type SkippedSessionLine } from "./parse-session-log.js";
import { redactSecrets } from "./redact-secrets.js";
import { isValidSessionKey, sessionLogPath } from "./session-key.js";
import type { SessionEvent, SessionStore } from "./types.js";

/** Options of createFileSessionStore. */
export interface FileSessionStoreOptions {
  /** Told about lines `read` skipped (torn or unparsable). Default: nothing is reported. */
  onSkippedLines?(report: {
    agentId: string;
    sessionKey: string;
    path: string;
    skipped: SkippedSessionLine[];
  }): void;
}

// O_NOFOLLOW is 0 where the platform has none; a symlinked log is then followed.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW;
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;
const NEWLINE = 0x0a;

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The redacted event as one JSON line; refuses what cannot be a session event. */
function toLine(event: SessionEvent): string {
  const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
  if (typeof type !== "string" || !SESSION_EVENT_TYPES.has(type as SessionEvent["type"])) {
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `Cannot append a session event without a known type (got ${JSON.stringify(type) ?? "none"}): use one of ${[...SESSION_EVENT_TYPES].join(", ")}.`,
    );
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(redactSecrets(event));
  } catch (error) {
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `Cannot append a "${type}" session event: it is not JSON-serialisable (${messageOf(error)}). Pass plain data.`,
    );
  }
  return `${json}\n`;
}

async function openForAppend(path: string): Promise<FileHandle> {
  try {
    return await open(path, APPEND_FLAGS, FILE_MODE);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
    await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
    return await open(path, APPEND_FLAGS, FILE_MODE);
  }
}

/** Appends one line, on a new line if the file ends in a torn write, and flushes it to disk. */
async function appendLine(path: string, line: string): Promise<void> {
  const handle = await openForAppend(path);
  try {
    const { size } = await handle.stat();
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== NEWLINE) prefix = "\n";
    }
    await handle.appendFile(prefix + line, "utf8");
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

async function readText(path: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

async function directoryNames(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return [];
    throw error;
  }
}

async function sessionFiles(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return [];
    throw error;
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
 * Each append redacts the event (redactSecrets), serialises it at call time, and writes it as one line
 * through a per-file promise chain (appends to one session never interleave and land in call order),
 * then `datasync`s before resolving. A file left ending in a torn line gets a newline first, so the next
 * event always starts its own line. `read` waits for appends already queued, then parses (a torn or
 * bad line is skipped, never fatal). Files are created 0600, directories 0700; symlinked logs are refused.
 */
export function createFileSessionStore(
  stateDir: string,
  options: FileSessionStoreOptions = {},
): SessionStore {
  const queues = new Map<string, Promise<void>>();

  const enqueue = (path: string, work: () => Promise<void>): Promise<void> => {
    const previous = queues.get(path) ?? Promise.resolve();
    const result = previous.then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    queues.set(path, settled);
    void settled.then(() => {
      if (queues.get(path) === settled) queues.delete(path);
    });
    return result;
  };

  return {
    async append(agentId, sessionKey, event) {
      const path = sessionLogPath(stateDir, agentId, sessionKey);
      const line = toLine(event);
      try {
        await enqueue(path, () => appendLine(path, line));
      } catch (error) {
        throw storageError("append to", path, error);
      }
    },

    async read(agentId, sessionKey) {
      const path = sessionLogPath(stateDir, agentId, sessionKey);
      await queues.get(path);
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
      const agentsDir = join(stateDir, "agents");
      const sessions: Array<{ agentId: string; sessionKey: string; updatedAt: string; bytes: number }> = [];
      const mtimes: number[] = [];
      try {
        for (const agentId of (await directoryNames(agentsDir)).filter(isValidSessionKey)) {
          const sessionsDir = join(agentsDir, agentId, "sessions");
          for (const file of await sessionFiles(sessionsDir)) {
            if (!file.endsWith(SESSION_FILE_EXTENSION)) continue;
            const sessionKey = file.slice(0, -SESSION_FILE_EXTENSION.length);
            if (!isValidSessionKey(sessionKey)) continue;
            const stats = await lstat(join(sessionsDir, file)).catch(() => undefined);
            if (!stats?.isFile()) continue;
            sessions.push({ agentId, sessionKey, updatedAt: stats.mtime.toISOString(), bytes: stats.size });
            mtimes.push(stats.mtimeMs);
          }
        }
      } catch (error) {
        throw storageError("list", agentsDir, error);
      }
      const order = sessions.map((_, index) => index);
      order.sort((a, b) => {
        const byTime = (mtimes[b] ?? 0) - (mtimes[a] ?? 0);
        if (byTime !== 0) return byTime;
        const left = sessions[a]!;
        const right = sessions[b]!;
        if (left.agentId !== right.agentId) return left.agentId < right.agentId ? -1 : 1;
        return left.sessionKey < right.sessionKey ? -1 : left.sessionKey > right.sessionKey ? 1 : 0;
      });
      return order.map((index) => sessions[index]!);
    },
  };
}
