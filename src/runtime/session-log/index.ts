export { isoNow } from "./iso-now.js";
export {
  isStorageUnavailable,
  openSessionLog,
  type RunLog,
  type RunLogEvent,
  type SessionLog,
  type SessionLogOptions,
} from "./open-session-log.js";
