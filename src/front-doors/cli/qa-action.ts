import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { formatScenarioReport, runGatewayScenario } from "../../dev/qa/index.js";
import type { CliIo } from "./types.js";

/**
 * What `toolsift qa suite` does: runs the gateway scenario, prints its table, writes the JSON report to
 * `output`, and fails when the scenario failed. Lane progress goes to stderr only when `isTerminal`.
 */
export async function runQaSuite(options: { output: string; isTerminal: boolean }, io: CliIo): Promise<void> {
  const report = await runGatewayScenario({
    onLane: (lane) => {
      if (options.isTerminal)
        io.stderr(`lane ${lane.lane}: ${lane.failures.length === 0 ? "ok" : "FAILED"}\n`);
    },
  });
  io.stdout(formatScenarioReport(report));
  const output = resolve(options.output);
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, `${JSON.stringify(report, null, 2)}\n`);
  io.stdout(`Report written to ${output}\n`);
  if (!report.passed) throw new Error("the scenario failed: see the assertions above.");
}
