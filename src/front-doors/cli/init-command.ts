import { Command } from "commander";
import type { CliIo } from "./types.js";

const INIT_HELP = `
Writes, into DIR (default: the current folder):
  toolsift.json5                       a commented starter config: the mock model and the example plugin
  plugins/weather/toolsift.plugin.json an example plugin's manifest (two tools)
  plugins/weather/index.js             its register(api)
  catalog.json                         41 example tool definitions for toolsift search --catalog

Nothing is overwritten: when one of these files exists, init writes nothing and exits 1 naming them.

Then, in DIR:
  npx toolsift search "weather forecast" --catalog catalog.json
  npx toolsift mock-openai                          (a scripted model; no key, no network)
  npx toolsift gateway --config toolsift.json5`;

/** The `init` command: writes a starter config, an example plugin and an example catalog into a folder. */
export function createInitCommand(io: CliIo): Command {
  return new Command("init")
    .description("write a starter config, an example plugin and an example catalog into this folder")
    .option("--dir <dir>", "folder to write into (created when missing; default: the current folder)")
    .addHelpText("after", INIT_HELP)
    .action(async (options: { dir?: string }) => {
      const { runInit } = await import("./init-action.js");
      await runInit({ dir: options.dir ?? process.cwd() }, io);
    });
}
