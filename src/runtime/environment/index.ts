export { createRunEnvironment } from "./create-run-environment.js";
export { type LogLine, type LogPage, type LogPageQuery, LogRing, type LogRingReader } from "./log-ring.js";
export {
  createRunCaches,
  type RunCaches,
  type RunEnvironment,
  type RunSurfaceEnvironment,
} from "./run-environment.js";
export { agentProfile, MCP_SERVE_PROFILE_ID, mcpServeProfile, type RunProfile } from "./run-profile.js";
export { libraryRuntimeCaches } from "./runtime-caches.js";
