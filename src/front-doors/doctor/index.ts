export { checkGatewayAuth } from "./check-gateway-auth.js";
export { checkMcpServers } from "./check-mcp-servers.js";
export { checkPolicy } from "./check-policy.js";
export { checkProviders } from "./check-providers.js";
export { checkStateDatabase } from "./check-state-database.js";
export { checkStateDir } from "./check-state-dir.js";
export { formatDoctorReport } from "./format-doctor-report.js";
export { runDoctor } from "./run-doctor.js";
export type { DoctorCheck } from "./types.js";
