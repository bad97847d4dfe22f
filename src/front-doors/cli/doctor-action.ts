import { configOptionText } from "../../runtime/config/index.js";
import { formatDoctorReport, runDoctor } from "../doctor/index.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift doctor`, with the environment to check. */
export type DoctorActionOptions = { fix?: boolean; json?: boolean; config?: string; env: NodeJS.ProcessEnv };

/**
 * What `toolsift doctor` does: runs the checks (and the migration with `--fix`), prints the report, and fails
 * with a hint to run it again when any check is an error.
 */
export async function runDoctorCommand(options: DoctorActionOptions, io: CliIo): Promise<void> {
  const report = await runDoctor({
    ...(options.config === undefined ? {} : { configPath: options.config }),
    env: options.env,
    fix: options.fix === true,
  });
  io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report));
  if (!report.ok) {
    const errors = report.checks.filter((check) => check.status === "error").length;
    const again = `toolsift doctor${configOptionText(blankAsUnset(options.config))}`;
    throw new Error(
      `doctor found ${errors} error${errors === 1 ? "" : "s"}; fix ${errors === 1 ? "it" : "them"} and run ${again} again.`,
    );
  }
}

/** `--config ""` means the default file (as in resolveConfigPaths), so a hint must not repeat it. */
function blankAsUnset(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
