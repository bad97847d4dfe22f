import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Command, Option } from "commander";
import { formatScenarioReport, runGatewayScenario } from "../qa/index.js";
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
    .action(async (flags: { output: string }) => {
      const report = await runGatewayScenario({
        onLane: (lane) => {
          if (options.isTerminal)
            io.stderr(`lane ${lane.lane}: ${lane.failures.length === 0 ? "ok" : "FAILED"}\n`);
        },
      });
      io.stdout(formatScenarioReport(report));
      const output = resolve(flags.output);
      await mkdir(dirname(output), { recursive: true });
      await writeFile(output, `${JSON.stringify(report, null, 2)}\n`);
      io.stdout(`Report written to ${output}\n`);
      if (!report.passed) throw new Error("the scenario failed: see the assertions above.");
    });
  return qa;
}
