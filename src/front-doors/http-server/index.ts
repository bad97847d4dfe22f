export { descriptorExhaustion } from "./descriptor-exhaustion.js";
export { connectionBudget } from "./descriptor-limit.js";
export { BUSY_RETRY_AFTER_SECONDS, CONNECTION_CLOSE_GRACE_MS } from "./limits.js";
export { createRequestFailureLog } from "./request-failure-log.js";
export { type ServerLimits, serveHardened } from "./serve-hardened.js";
