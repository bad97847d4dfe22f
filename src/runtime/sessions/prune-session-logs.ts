import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";

/** `sessions.retention`: how long, and how much, session logs are kept. Unset: kept forever. */
export type SessionRetention = {
  /** Logs whose last write is older than this many days are removed. Default: no age limit. */
  maxAgeDays?: number;
  /** Past this many bytes in all, the oldest logs (by last write) are removed first. Default: no size limit. */
  maxTotalBytes?: number;
};

/** Inputs of {@link pruneSessionLogs}. */
export type PruneSessionLogsOptions = SessionRetention & {
  /** The state directory (`<stateDir>/agents/<agent>/sessions/<key>.jsonl`). */
  stateDir: string;
  /**
   * Logs written in the last this many ms are never removed, whatever the limits say: their session may be
   * running. Default {@link ACTIVE_SESSION_GRACE_MS}.
   */
  activeGraceMs?: number;
  /** The clock, for tests. Default `Date.now`. */
  now?: () => number;
};

/** What a pruning pass removed. */
export type PruneReport = { removed: string[]; removedBytes: number; keptBytes: number };

/** A log written this recently belongs to a session that may be running (a run lasts at most 10 minutes by default). */
export const ACTIVE_SESSION_GRACE_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Applies `sessions.retention` to the state directory: removes the logs older than `maxAgeDays`, then, while
 * the rest is over `maxTotalBytes`, the oldest first. A log written in the last `activeGraceMs` is never
 * removed (its session may be being written), even when that leaves the total over the limit. A file that
 * vanished meanwhile is skipped; other files in the folders are not touched.
 */
export async function pruneSessionLogs(options: PruneSessionLogsOptions): Promise<PruneReport> {
  const now = (options.now ?? Date.now)();
  const grace = options.activeGraceMs ?? ACTIVE_SESSION_GRACE_MS;
  const logs = (await listLogs(options.stateDir)).sort((a, b) => a.mtimeMs - b.mtimeMs);
  let total = logs.reduce((sum, log) => sum + log.size, 0);
  const report: PruneReport = { removed: [], removedBytes: 0, keptBytes: 0 };
  for (const log of logs) {
    if (now - log.mtimeMs < grace) continue;
    const tooOld = options.maxAgeDays !== undefined && now - log.mtimeMs > options.maxAgeDays * DAY_MS;
    const tooMuch = options.maxTotalBytes !== undefined && total > options.maxTotalBytes;
    if (!tooOld && !tooMuch) continue;
    try {
      await unlink(log.path);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENOENT") throw error;
    }
    total -= log.size;
    report.removed.push(log.path);
    report.removedBytes += log.size;
  }
  report.keptBytes = total;
  return report;
}

type LogFile = { path: string; size: number; mtimeMs: number };

async function listLogs(stateDir: string): Promise<LogFile[]> {
  const agentsDir = join(stateDir, "agents");
  const logs: LogFile[] = [];
  for (const agent of await entries(agentsDir)) {
    const sessionsDir = join(agentsDir, agent, "sessions");
    for (const name of await entries(sessionsDir)) {
      if (!name.endsWith(".jsonl")) continue;
      const path = join(sessionsDir, name);
      try {
        const info = await stat(path);
        if (info.isFile()) logs.push({ path, size: info.size, mtimeMs: info.mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
  }
  return logs;
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return [];
    throw error;
  }
}
