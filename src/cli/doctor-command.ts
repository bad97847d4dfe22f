import { Command } from "commander";
import { configOptionText } from "../config/index.js";
import { formatDoctorReport, runDoctor } from "../doctor/index.js";
import type { CliIo } from "./types.js";

const DOCTOR_HELP = `
Checks, without changing anything: the config file parses and validates; retired keys (Tool Search code
mode); the state directory is writable; providers have API keys; MCP server commands exist (URLs are not
contacted); plugins load; policy selectors can match a tool.

--fix migrates retired keys in place: mode "code" becomes "tools", codeTimeoutMs is removed (an object that
held only the timeout becomes { enabled: true }). The old file is kept as <file>.bak-<timestamp> and the new
one is written atomically; comments elsewhere in the file stay.

Exit codes: 0 no errors (warnings allowed), 1 errors remain, 2 usage error.`;

/** What `toolsift doctor` needs from the program: the environment to check. Default `process.env`. */
export type DoctorCommandDeps = { env?: NodeJS.ProcessEnv };

/** The `doctor` command: prints one line per check (or `--json`), and fails when any check is an error. */
export function createDoctorCommand(io: CliIo, deps: DoctorCommandDeps = {}): Command {
  return new Command("doctor")
    .description("diagnose the installation; --fix migrates retired config keys")
    .option("--fix", "migrate retired keys in the config file (after a backup)")
    .option("--json", "print the report as JSON")
    .option("--config <file>", "config file (JSON5)")
    .addHelpText("after", DOCTOR_HELP)
    .action(async (options: { fix?: boolean; json?: boolean; config?: string }) => {
      const report = await runDoctor({
        ...(options.config === undefined ? {} : { configPath: options.config }),
        env: deps.env ?? process.env,
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
    });
}

/** `--config ""` means the default file (as in resolveConfigPaths), so a hint must not repeat it. */
function blankAsUnset(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
