export { type AppendListener, createAppendWatchers } from "./append-watchers.js";
export { createFileSessionStore, type FileSessionStoreOptions } from "./file-session-store.js";
export { MAX_CONTENT_SCAN_BYTES, MAX_CONTENT_SCAN_SESSIONS, MAX_SESSION_KEY_CHARS } from "./limits.js";
export { listSessionPage } from "./list-session-page.js";
export { pageByContent } from "./page-by-content.js";
export type { ListedSession, SessionPage, SessionPageOptions, SessionStat } from "./page-sessions.js";
export { pageSessions, parseSessionListId } from "./page-sessions.js";
export { parseSessionLog } from "./parse-session-log.js";
export type { StorageStatus } from "./probe-state-dir.js";
export {
  ACTIVE_SESSION_GRACE_MS,
  type PruneReport,
  pruneSessionLogs,
  type SessionRetention,
} from "./prune-session-logs.js";
export { collectSecretValues, redactKnownValues } from "./redact-known-values.js";
export { REDACTED, redactSecrets } from "./redact-secrets.js";
export { redactSessionEvent } from "./redact-session-event.js";
export { redactText } from "./redact-text.js";
export { replayConversation } from "./replay-conversation.js";
export { isSecretKeyName } from "./secret-key-name.js";
export {
  SESSION_STATUSES,
  type SessionContentQuery,
  type SessionStatus,
  sessionContentMatches,
  sessionStatus,
} from "./session-content.js";
export { assertValidSessionKey, isValidSessionKey, sessionLogPath } from "./session-key.js";
export { sessionEventLine } from "./session-line.js";
export { createStorageFaultReporter, type StorageFaultReporter } from "./storage-fault-reporter.js";
export { STORAGE_FIX } from "./storage-unavailable.js";
export { type SessionSummary, summarizeSession } from "./summarize-session.js";
export type { SessionEvent, SessionStore } from "./types.js";
