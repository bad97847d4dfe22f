import { Command } from "commander";
import { assembleRuntime } from "./assemble-runtime.js";
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
      const runtime = await assembleRuntime({
        ...(options.config ? { configPath: options.config } : {}),
        log: (line) => io.stderr(`${line}\n`),
      });
      try {
        const surface = await runtime.runner.effectiveSurface(options.agent);
        if (options.json) {
          io.stdout(`${JSON.stringify(surface, null, 2)}\n`);
          return;
        }
        const mode = surface.toolSearch.enabled ? `on, ${surface.toolSearch.mode} mode` : "off";
        const lines = [
          `agent: ${surface.agentId}`,
          `tool search: ${mode}`,
          `declared to the model (${surface.declaredTools.length}): ${surface.declaredTools.join(", ") || "none"}`,
          `admitted tools (${surface.tools.length}):`,
          ...surface.tools.map((tool) => `  ${tool.visibility.padEnd(11)} ${tool.id}`),
        ];
        io.stdout(`${lines.join("\n")}\n`);
      } finally {
        await runtime.close();
      }
    });
}
