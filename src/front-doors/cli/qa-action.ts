import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { formatScenarioReport, runGatewayScenario } from "../../dev/qa/index.js";
import type { CliIo } from "./types.js";

/**
 * What `toolsift qa suite` does: runs the gateway scenario, prints its table, writes the JSON report to
 * `output`, and fails when the scenario failed. With `keepFiles`, the scenario's folder stays and its path is
 * printed, so an operator can open the lanes' sessions in the console. Lane progress goes to stderr only when `isTerminal`.
 */
export async function runQaSuite(
  options: { output: string; isTerminal: boolean; keepFiles?: boolean },
  io: CliIo,
): Promise<void> {
  const report = await runGatewayScenario({
    keepFiles: options.keepFiles === true,
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
  if (report.files !== undefined)
    io.stdout(
      keptFilesHelp(
        report.files,
        (report.lanes.find((lane) => lane.lane === "default") ?? report.lanes[0])?.lane,
      ),
    );
  if (!report.passed) throw new Error("the scenario failed: see the assertions above.");
}

/** Where the kept scenario is, and how to read a lane's sessions in the console or the CLI. */
function keptFilesHelp(folder: string, lane: string | undefined): string {
  const example = join(folder, "lanes", lane ?? "<lane>");
  return [
    `Scenario files kept in ${folder} (one folder per lane under lanes/).`,
    "To read a lane's sessions, run a gateway on its config and state and open /console:",
    `  TOOLSIFT_STATE_DIR=${join(example, "state")} toolsift gateway --config ${join(example, "toolsift.json")}`,
    `  or: TOOLSIFT_STATE_DIR=${join(example, "state")} toolsift sessions`,
    "",
  ].join("\n");
}
