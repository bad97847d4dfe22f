import { Command } from "commander";
import type { StateOptions } from "./state-action.js";
import type { CliIo } from "./types.js";

const STATE_HELP = `
Where toolsift keeps sessions, stored responses, pending approvals and the order of runs on a session:
with state.url (or TOOLSIFT_STATE_URL) set to a postgresql:// URL, in that PostgreSQL database, shared by
every gateway on it; without, in files under the state directory (TOOLSIFT_STATE_DIR).

  toolsift state status     where state is kept; with a database: its schema version and what is in it
  toolsift state migrate    apply pending schema migrations now (a gateway also applies them at start)

The database password is never printed. Exit codes: 0 success, 1 failure (database unreachable, schema
newer than this toolsift), 2 usage error.`;

/** The `state` command: `status` and `migrate` of the state store that `state.url` names. */
export function createStateCommand(io: CliIo): Command {
  const state = new Command("state")
    .description("where sessions, stored responses and approvals are kept: status, and schema migrations")
    .addHelpText("after", STATE_HELP);
  state
    .command("status")
    .description("show where state is kept; with state.url: schema version, pending migrations and counts")
    .option("--json", "print JSON")
    .option("--config <file>", "config file (JSON5)")
    .action(async (options: StateOptions) => {
      const { showStateStatus } = await import("./state-action.js");
      await showStateStatus(options, io);
    });
  state
    .command("migrate")
    .description("apply pending migrations to the state database (state.url)")
    .option("--config <file>", "config file (JSON5)")
    .action(async (options: StateOptions) => {
      const { migrateState } = await import("./state-action.js");
      await migrateState(options, io);
    });
  return state;
}
