export { INVALID_TOKEN_MESSAGE, isLoopbackHost } from "../../runtime/http-guard/index.js";
export { createGateway } from "./create-gateway.js";
export type { ApiErrorBody, ApiErrorType } from "./gateway-error.js";
export { GatewayError } from "./gateway-error.js";
export {
  DEFAULT_AGENT_ID,
  DEFAULT_GATEWAY_HOST,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_MAX_BODY_BYTES,
  GATEWAY_DRAIN_TIMEOUT_MS,
  MAX_APPROVAL_BODY_BYTES,
} from "./limits.js";
export { AGENT_HEADER, SESSION_HEADER } from "./run-target.js";
export { type StartedGateway, type StartGatewayOptions, startGateway } from "./start-gateway.js";
export type { Gateway, GatewayListener, GatewayOptions, GatewayStats } from "./types.js";
