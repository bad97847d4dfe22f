export { createGateway } from "./create-gateway.js";
export { GATEWAY_DRAIN_TIMEOUT_MS } from "./limits.js";
export { DEFAULT_GATEWAY_HOST, DEFAULT_GATEWAY_PORT, startGateway } from "./start-gateway.js";
