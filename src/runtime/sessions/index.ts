export { createFileSessionStore, type FileSessionStoreOptions } from "./file-session-store.js";
export {
  MAX_JSON_REDACTION_CHARS,
  MAX_KNOWN_SECRET_ESCAPES,
  MAX_REDACTION_DEPTH,
  MAX_REDACTION_NODES,
  MAX_SESSION_KEY_CHARS,
  MIN_KNOWN_SECRET_CHARS,
} from "./limits.js";
export { listSessionPage } from "./list-session-page.js";
export {
  type ListedSession,
  pageSessions,
  parseSessionListId,
  type SessionPage,
  type SessionPageOptions,
  type SessionStat,
  sessionListId,
} from "./page-sessions.js";
export {
  type ParsedSessionLog,
  parseSessionLog,
  SESSION_EVENT_TYPES,
  type SkippedSessionLine,
} from "./parse-session-log.js";
export { probeStateDir, type StorageStatus } from "./probe-state-dir.js";
export {
  ACTIVE_SESSION_GRACE_MS,
  type PruneReport,
  type PruneSessionLogsOptions,
  pruneSessionLogs,
  type SessionRetention,
} from "./prune-session-logs.js";
export { collectSecretValues, redactKnownValues } from "./redact-known-values.js";
export { CIRCULAR, REDACTED, redactSecrets, TRUNCATED } from "./redact-secrets.js";
export { redactSessionEvent } from "./redact-session-event.js";
export { redactText } from "./redact-text.js";
export { replayConversation } from "./replay-conversation.js";
export { isSecretKeyName } from "./secret-key-name.js";
export {
  assertValidSessionKey,
  isValidSessionKey,
  SESSION_KEY_PATTERN,
  sessionLogPath,
} from "./session-key.js";
export { isStorageFault, STORAGE_FIX, storageUnavailable } from "./storage-unavailable.js";
export {
  type SessionRunSummary,
  type SessionSummary,
  type SessionToolRef,
  summarizeSession,
} from "./summarize-session.js";
export type { SessionEvent, SessionStore } from "./types.js";
