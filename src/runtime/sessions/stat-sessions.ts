import { lstatSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { SESSION_STATS_PER_TURN } from "./limits.js";
import type { SessionStat } from "./page-sessions.js";
import { isValidSessionKey, SESSION_FILE_EXTENSION } from "./session-key.js";

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** The entries of a directory of `kind`; none when it is missing or not a directory. */
async function entryNames(path: string, kind: "directory" | "file"): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries
      .filter((entry) => (kind === "directory" ? entry.isDirectory() : entry.isFile()))
      .map((entry) => entry.name);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return [];
    throw error;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every session log under `<stateDir>/agents/<valid id>/sessions/<valid key>.jsonl` with its times and size,
 * from one `lstat` each (no file is opened or read). The `lstat`s are synchronous, SESSION_STATS_PER_TURN per
 * turn of the event loop: one thread-pool round trip per file made 96,000 sessions a matter of seconds,
 * while a bounded synchronous run keeps the gateway answering other requests between them. A file that
 * vanished meanwhile, or is not a regular file (a symlink), is left out.
 */
export async function statSessions(stateDir: string): Promise<SessionStat[]> {
  const agentsDir = join(stateDir, "agents");
  const sessions: SessionStat[] = [];
  let sinceTurn = 0;
  for (const agentId of (await entryNames(agentsDir, "directory")).filter(isValidSessionKey)) {
    const sessionsDir = join(agentsDir, agentId, "sessions");
    for (const file of await entryNames(sessionsDir, "file")) {
      if (!file.endsWith(SESSION_FILE_EXTENSION)) continue;
      const sessionKey = file.slice(0, -SESSION_FILE_EXTENSION.length);
      if (!isValidSessionKey(sessionKey)) continue;
      if (++sinceTurn >= SESSION_STATS_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
      }
      const stats = lstatSync(join(sessionsDir, file), { throwIfNoEntry: false });
      if (!stats?.isFile()) continue;
      sessions.push({
        agentId,
        sessionKey,
        // A file system without birth times reports 0: the modification time stands in (see DESIGN.md).
        createdMs: stats.birthtimeMs > 0 ? stats.birthtimeMs : stats.mtimeMs,
        updatedMs: stats.mtimeMs,
        bytes: stats.size,
      });
    }
  }
  return sessions;
}
