import type { DoctorReport } from "./types.js";

/** Width of the status column in the text report. */
const STATUS_COLUMN_WIDTH = 6;

/** C0/C1 controls and line separators: a hostile plugin or file name must not drive the terminal. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/gu;

/**
 * The report as a person reads it: one line per check (`status  name: message`), its details and fix indented
 * below, the backup path after a fix, and a summary line. Control characters are replaced.
 */
export function formatDoctorReport(report: DoctorReport): string {
  const pad = " ".repeat(STATUS_COLUMN_WIDTH + 1);
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${check.status.padEnd(STATUS_COLUMN_WIDTH)} ${check.name}: ${clean(check.message)}`);
    for (const detail of check.details ?? []) lines.push(`${pad}  ${clean(detail)}`);
    if (check.fix !== undefined && check.status !== "ok") lines.push(`${pad}fix: ${clean(check.fix)}`);
  }
  if (report.backupPath !== undefined) lines.push(`The old file was saved as ${clean(report.backupPath)}`);
  lines.push(summary(report));
  return `${lines.join("\n")}\n`;
}

function summary(report: DoctorReport): string {
  const count = (status: string) => report.checks.filter((check) => check.status === status).length;
  const errors = count("error");
  const warnings = count("warn");
  const fixed = count("fixed");
  const parts = [
    errors > 0 ? `${errors} error${errors === 1 ? "" : "s"}` : "",
    warnings > 0 ? `${warnings} warning${warnings === 1 ? "" : "s"}` : "",
    fixed > 0 ? `${fixed} change${fixed === 1 ? "" : "s"} made` : "",
  ].filter(Boolean);
  return parts.length === 0 ? "All checks passed." : `${parts.join(", ")}.`;
}

function clean(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "\uFFFD");
}
