export { createRunEnvironment, type RunEnvironmentOptions } from "./create-run-environment.js";
export {
  createRunCaches,
  type RunCaches,
  type RunEnvironment,
  type RunSurfaceEnvironment,
} from "./run-environment.js";
export {
  agentProfile,
  MCP_SERVE_PROFILE_ID,
  mcpServeProfile,
  type RunProfile,
  toolSearchModel,
} from "./run-profile.js";
export { createRuntimeCaches, libraryRuntimeCaches, type RuntimeCaches } from "./runtime-caches.js";
