import { Command } from "commander";
import type { CliIo } from "./types.js";

/** The `tools` command: the effective surface a run of an agent would get. */
export function createToolsCommand(io: CliIo): Command {
  return new Command("tools")
    .description(
      "show the effective tool surface of an agent: admitted tools, what the model sees, the directory",
    )
    .option("--agent <id>", "agent id", "main")
    .option("--json", "print the surface as JSON")
    .option("--config <file>", "config file (JSON5)")
    .action(async (options: { agent: string; json?: boolean; config?: string }) => {
      const { showTools } = await import("./tools-action.js");
      await showTools(options, io);
    });
}
