export { createBearerTokenCheck } from "./check-bearer-token.js";
export { checkJsonContentType, isJsonContentType } from "./check-content-type.js";
export { createHostCheck, describeAllowedHostProblem, type HostRule } from "./check-host.js";
export { createOriginCheck, type OriginVerdict } from "./check-origin.js";
export { type CorsRules, createHttpGuard, type HttpGuardOptions } from "./create-http-guard.js";
export { isLoopbackHost } from "./is-loopback-host.js";
export { INVALID_TOKEN_MESSAGE, LOOPBACK_HOST_NAMES, NULL_ORIGIN } from "./limits.js";
export { describeOriginProblem, type NormalisedOrigin, normaliseOrigin } from "./normalise-origin.js";
export type { GuardRefusal, GuardRefusalCode, GuardVerdict } from "./types.js";
