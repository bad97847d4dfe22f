export {
  type Caller,
  callerHasScope,
  callerMayUseAgent,
  isAdminCaller,
  KEY_ID_PATTERN,
  LEGACY_TOKEN_KEY_ID,
  LOCAL_CALLER,
  SCOPES,
  type Scope,
} from "./caller.js";
export {
  type BindAuth,
  checkBindAuth,
  DEFAULT_BIND_HOST,
  isBlankToken,
  TOKEN_VARIABLE,
} from "./check-bind-auth.js";
export { createHostCheck, describeAllowedHostProblem } from "./check-host.js";
export {
  type ClientAddressReader,
  canonicalAddress,
  clientAddressOf,
  createClientAddressReader,
  createTrustedProxies,
  describeTrustedProxyProblem,
  MAX_FORWARDED_HOPS,
  type TrustedProxies,
  UNKNOWN_CLIENT_ADDRESS,
} from "./client-address.js";
export { CALLER, createHttpGuard } from "./create-http-guard.js";
export { type AuthKey, createKeyRing, INVALID_TOKEN_MESSAGE, type KeyRing } from "./create-key-ring.js";
export { isLoopbackHost } from "./is-loopback-host.js";
export { describeOriginProblem } from "./normalise-origin.js";
export type { GuardRefusal } from "./types.js";
