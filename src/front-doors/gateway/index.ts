export { createGateway } from "./create-gateway.js";
export { DEFAULT_HOSTED_TOOLS_SETTING } from "./hosted-tools.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_QUEUED_PER_SESSION,
  GATEWAY_DRAIN_TIMEOUT_MS,
} from "./limits.js";
export { DEFAULT_GATEWAY_HOST, DEFAULT_GATEWAY_PORT, startGateway } from "./start-gateway.js";
