export {
  type Caller,
  callerHasScope,
  callerMayUseAgent,
  isAdminCaller,
  KEY_ID_PATTERN,
  LEGACY_TOKEN_KEY_ID,
  LOCAL_CALLER,
  LOCAL_CALLER_ID,
  SCOPES,
  type Scope,
} from "./caller.js";
export { checkJsonContentType, isJsonContentType } from "./check-content-type.js";
export {
  createHostCheck,
  describeAllowedHostProblem,
  type HostRule,
  LOOPBACK_HOST_NAMES,
} from "./check-host.js";
export { createOriginCheck, type OriginVerdict } from "./check-origin.js";
export { CALLER, type CorsRules, createHttpGuard, type HttpGuardOptions } from "./create-http-guard.js";
export { type AuthKey, createKeyRing, INVALID_TOKEN_MESSAGE, type KeyRing } from "./create-key-ring.js";
export { isLoopbackHost } from "./is-loopback-host.js";
export {
  describeOriginProblem,
  type NormalisedOrigin,
  NULL_ORIGIN,
  normaliseOrigin,
} from "./normalise-origin.js";
export type { GuardRefusal, GuardRefusalCode, GuardVerdict } from "./types.js";
