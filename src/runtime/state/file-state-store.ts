import { createMemoryApprovalLedger } from "../approvals/index.js";
import { createFileSessionStore, type FileSessionStoreOptions, pruneSessionLogs } from "../sessions/index.js";
import { createMemoryConsoleSessionStore } from "./memory-console-sessions.js";
import { createMemoryResponseStore } from "./response-registry.js";
import { createMemoryRunQueue } from "./session-queue.js";
import type { StateStore } from "./types.js";

/**
 * The embedded default StateStore of one process: session logs as JSONL files under `stateDir`, stored
 * responses, pending approvals, console sessions and the per-session run order in this process's memory (lost on restart,
 * except the logs).
 */
export function createFileStateStore(stateDir: string, options: FileSessionStoreOptions = {}): StateStore {
  const sessions = createFileSessionStore(stateDir, options);
  return {
    kind: "files",
    where: stateDir,
    sessions,
    responses: createMemoryResponseStore(),
    approvals: createMemoryApprovalLedger(),
    consoleSessions: createMemoryConsoleSessionStore(),
    createRunQueue: createMemoryRunQueue,
    prune: (retention) => pruneSessionLogs({ stateDir, ...retention }),
    probe: async () => (await sessions.probeWritable?.()) ?? { writable: true },
    close: async () => undefined,
  };
}
