import { Command } from "commander";
import type * as ConfigActions from "./config-command.js";
import type { CliIo } from "./types.js";

const CONFIG_HELP = `
Paths are dotted keys with [n] for array elements, and ["key"] for keys with dots or spaces:
  tools.toolSearch   agents.list[0].id   models.providers["llama.cpp"].baseUrl

Examples:
  toolsift config get tools.toolSearch
  toolsift config set tools.toolSearch true                  (true is a boolean)
  toolsift config set agents.defaults.model openai/gpt-5.4-mini   (not JSON5, so a string)
  toolsift config set tools.toolSearch '{ mode: "directory", maxSearchLimit: 12 }'
  toolsift config unset tools.toolSearch

A value that starts with a dash goes after --, with any options before it: toolsift config set PATH --config FILE -- -1

Every change is validated before it is written (a change that makes the file invalid is refused and nothing
is written), keeps the file's comments and formatting outside the edited value, and is written atomically.
Exit codes: 0 success, 1 no value at the path / refused change / unreadable file, 2 usage error.`;

/** A parsed PATH argument. */
type ConfigPath = ReturnType<typeof ConfigActions.parseConfigPath>;

/** Options of the config command: where to find the config when --config is not given. */
export type ConfigCommandDeps = { env?: NodeJS.ProcessEnv };

/**
 * The `config` command: `get`, `set` and `unset` one value of the config file, keeping the rest of it. The
 * implementation (`config-command.ts`: the JSON5 editor, the config schema) is imported when a subcommand
 * is dispatched, before commander parses its PATH argument, which needs the path parser synchronously.
 */
export function createConfigCommand(io: CliIo, deps: ConfigCommandDeps = {}): Command {
  const env = deps.env ?? process.env;
  let actions: typeof ConfigActions | undefined;
  const loaded = (): typeof ConfigActions => {
    if (actions === undefined)
      throw new Error("config get/set/unset run only as subcommands of `config`, which loads them first.");
    return actions;
  };
  const parsePath = (text: string) => loaded().parseConfigPath(text);

  const get = new Command("get")
    .description("print the value at PATH as the file has it (JSON5; env:NAME values are not resolved)")
    .argument("<path>", "config path, e.g. tools.toolSearch", parsePath)
    .option("--json", "print the value as JSON")
    .option("--config <file>", "config file (JSON5); it must exist")
    .action(async (path: ConfigPath, options: { json?: boolean; config?: string }) => {
      await loaded().getConfigValue({ ...options, path, env }, io);
    });

  const set = new Command("set")
    .description("set the value at PATH (parsed as JSON5, else taken as a string), creating missing parents")
    .argument("<path>", "config path, e.g. tools.toolSearch", parsePath)
    .argument("<value>", 'JSON5 value (true, 12, ["a"], { mode: "tools" }) or a plain string')
    .option("--config <file>", "config file (JSON5); created when missing")
    .action(async (path: ConfigPath, text: string, options: { config?: string }) => {
      await loaded().setConfigValue({ ...options, path, text, env }, io);
    });

  const unset = new Command("unset")
    .description("remove the value at PATH (an array element: later elements move up)")
    .argument("<path>", "config path, e.g. tools.toolSearch", parsePath)
    .option("--config <file>", "config file (JSON5); it must exist")
    .action(async (path: ConfigPath, options: { config?: string }) => {
      await loaded().unsetConfigValue({ ...options, path, env }, io);
    });

  return new Command("config")
    .description("read and edit the config file one value at a time")
    .addCommand(get)
    .addCommand(set)
    .addCommand(unset)
    .addHelpText("after", CONFIG_HELP)
    .hook("preSubcommand", async () => {
      actions ??= await import("./config-command.js");
    });
}
