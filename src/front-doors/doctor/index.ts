export { checkProviders } from "./check-providers.js";
export { formatDoctorReport } from "./format-doctor-report.js";
export { runDoctor } from "./run-doctor.js";
