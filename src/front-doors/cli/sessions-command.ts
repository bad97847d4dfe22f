import { Command } from "commander";
import type { SessionsOptions } from "./sessions-action.js";
import type { CliIo } from "./types.js";

/**
 * The agent of a bare session key, as the `sessions show` help shows it: the config's MAIN_AGENT_ID, repeated
 * so that declaring the command loads no config code (limits.test.ts keeps the two equal).
 */
export const MAIN_AGENT_ID_SHOWN = "main";

/** The `sessions` command: list session logs, or show one with its summary. */
export function createSessionsCommand(io: CliIo): Command {
  const sessions = new Command("sessions")
    .description("list session logs (newest first, a page at a time), or show one")
    .option("--json", "print JSON")
    .option("--limit <n>", "sessions per page, 1 to 100 (default 20)")
    .option("--after <agent/key>", "list the page after this session (the last one listed)")
    .option(
      "--status <status>",
      "only sessions whose last run is running, completed, requires_action, failed or incomplete",
    )
    .option("--contains <text>", "only sessions whose input or output contains the text (case-insensitive)")
    .option("--config <file>", "config file (JSON5)")
    .action(async (options: SessionsOptions) => {
      const { listSessions } = await import("./sessions-action.js");
      await listSessions(options, io);
    });
  sessions
    .command("show")
    .description("show one session's events and what they answer")
    .argument("<key>", "the session as `toolsift sessions` lists it (agent/key), or a key with --agent")
    .option("--agent <id>", `agent id, for a key given without its agent (default ${MAIN_AGENT_ID_SHOWN})`)
    .option("--json", "print the summary and the events as JSON")
    .option("--config <file>", "config file (JSON5)")
    .action(async (key: string, _options: unknown, command: Command) => {
      const { showSession } = await import("./sessions-action.js");
      await showSession({ key, command }, io);
    });
  return sessions;
}
