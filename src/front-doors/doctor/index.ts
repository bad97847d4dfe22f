export { checkProviders } from "./check-providers.js";
export { formatDoctorReport } from "./format-doctor-report.js";
export { type MigrationPlan, planMigration, type RetiredKey } from "./plan-migration.js";
export { runDoctor } from "./run-doctor.js";
export type { DoctorCheck, DoctorOptions, DoctorReport, DoctorStatus } from "./types.js";
