export { isoNow } from "./iso-now.js";
export { isStorageUnavailable, openSessionLog, type RunLog, type SessionLog } from "./open-session-log.js";
