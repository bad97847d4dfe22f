import { Command } from "commander";
import type { CliIo } from "./types.js";

const DOCTOR_HELP = `
Checks, without changing anything: the config file parses and validates; retired keys (Tool Search code
mode); the state directory is writable; with state.url, the state database answers and its schema is
current (read only: pending migrations are a warning, never applied); providers have API keys; MCP server commands exist (URLs are not
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
      const { runDoctorCommand } = await import("./doctor-action.js");
      await runDoctorCommand({ ...options, env: deps.env ?? process.env }, io);
    });
}
