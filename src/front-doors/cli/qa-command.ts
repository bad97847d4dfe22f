import { Command, Option } from "commander";
import type { CliIo } from "./types.js";

/** The `qa suite` command: the end-to-end gateway scenario against the mock provider. */
export function createQaCommand(io: CliIo, options: { isTerminal: boolean }): Command {
  const qa = new Command("qa").description("end-to-end QA scenarios");
  qa.command("suite")
    .description("run a QA scenario with real gateway processes and print its table")
    .addOption(
      new Option("--provider-mode <mode>", "model provider").choices(["mock-openai"]).default("mock-openai"),
    )
    .addOption(
      new Option("--scenario <name>", "scenario")
        .choices(["tool-search-gateway-e2e"])
        .default("tool-search-gateway-e2e"),
    )
    .option("--output <file>", "where to write the JSON report", "qa-results/tool-search-gateway-e2e.json")
    .option(
      "--keep-files",
      "keep the scenario's folder (each lane's config and session logs) and print how to open it in the console",
    )
    .action(async (flags: { output: string; keepFiles?: boolean }) => {
      const { runQaSuite } = await import("./qa-action.js");
      await runQaSuite(
        { output: flags.output, isTerminal: options.isTerminal, keepFiles: flags.keepFiles === true },
        io,
      );
    });
  return qa;
}
