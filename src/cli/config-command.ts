import { Command, InvalidArgumentError } from "commander";
import JSON5 from "json5";
import {
  type ConfigPathSegment,
  configOptionText,
  type EditConfigFileResult,
  editConfigFile,
  formatConfigPath,
  formatJson5Value,
  MIGRATION_COMMAND,
  missingConfigError,
  parseConfigPathExpression,
  parseConfigText,
  readConfigPath,
  readConfigSource,
  resolveConfigPaths,
} from "../config/index.js";
import { ToolsiftError } from "../errors/index.js";
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

/** Options of the config command: where to find the config when --config is not given. */
export type ConfigCommandDeps = { env?: NodeJS.ProcessEnv };

/** The `config` command: `get`, `set` and `unset` one value of the config file, keeping the rest of it. */
export function createConfigCommand(io: CliIo, deps: ConfigCommandDeps = {}): Command {
  const env = deps.env ?? process.env;
  const fileOf = (options: { config?: string }) =>
    resolveConfigPaths({ ...(options.config === undefined ? {} : { configPath: options.config }), env });
  /** The file, which must exist when --config named it (only set may create one). */
  const existingFileOf = async (options: { config?: string }) => {
    const paths = fileOf(options);
    const source = await readConfigSource(paths.configPath);
    if (source.text === undefined && paths.configSource === "option") {
      throw missingConfigError(paths.configPath, options.config ?? paths.configPath);
    }
    return source;
  };

  const get = new Command("get")
    .description("print the value at PATH as the file has it (JSON5; env:NAME values are not resolved)")
    .argument("<path>", "config path, e.g. tools.toolSearch", parsePath)
    .option("--json", "print the value as JSON")
    .option("--config <file>", "config file (JSON5); it must exist")
    .action(async (path: ConfigPathSegment[], options: { json?: boolean; config?: string }) => {
      const source = await existingFileOf(options);
      const raw = source.text === undefined ? {} : parseConfigText(source.text, source.file);
      const found = readConfigPath(raw, path);
      if (!found.found) throw new ToolsiftError("INVALID_REQUEST", `No value at ${formatConfigPath(path)}.`);
      io.stdout(`${options.json ? JSON.stringify(found.value, null, 2) : formatJson5Value(found.value)}\n`);
    });

  const set = new Command("set")
    .description("set the value at PATH (parsed as JSON5, else taken as a string), creating missing parents")
    .argument("<path>", "config path, e.g. tools.toolSearch", parsePath)
    .argument("<value>", 'JSON5 value (true, 12, ["a"], { mode: "tools" }) or a plain string')
    .option("--config <file>", "config file (JSON5); created when missing")
    .action(async (path: ConfigPathSegment[], text: string, options: { config?: string }) => {
      const value = parseValue(text);
      const result = await editConfigFile({
        file: fileOf(options).configPath,
        edits: [{ op: "set", path, value }],
      });
      report(io, result, `${formatConfigPath(path)} = ${formatJson5Value(value)}`, options.config);
    });

  const unset = new Command("unset")
    .description("remove the value at PATH (an array element: later elements move up)")
    .argument("<path>", "config path, e.g. tools.toolSearch", parsePath)
    .option("--config <file>", "config file (JSON5); it must exist")
    .action(async (path: ConfigPathSegment[], options: { config?: string }) => {
      const source = await existingFileOf(options);
      const result = await editConfigFile({ file: source.file, edits: [{ op: "unset", path }] });
      report(io, result, `removed ${formatConfigPath(path)}`, options.config);
    });

  return new Command("config")
    .description("read and edit the config file one value at a time")
    .addCommand(get)
    .addCommand(set)
    .addCommand(unset)
    .addHelpText("after", CONFIG_HELP);
}

function parsePath(text: string): ConfigPathSegment[] {
  try {
    return parseConfigPathExpression(text);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/** JSON5 when it parses; otherwise the text itself, unless it was clearly meant as an object or array. */
export function parseValue(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch (error) {
    if (/^\s*[[{]/u.test(text)) {
      const reason = error instanceof Error ? error.message.replace(/^JSON5: /u, "") : "it does not parse";
      throw new ToolsiftError(
        "INVALID_REQUEST",
        `The value looks like an object or array but is not valid JSON5 (${reason}). Fix it, or quote it to set a string: '"${text}"'.`,
      );
    }
    return text;
  }
}

function report(io: CliIo, result: EditConfigFileResult, change: string, given: string | undefined): void {
  if (!result.changed) io.stdout(`${result.file} already has ${change}; nothing was written.\n`);
  else io.stdout(`${result.created ? "Created" : "Updated"} ${result.file}: ${change}\n`);
  if (result.remainingIssues.length > 0) {
    // A retired key's fix names the file the user is editing, so the hint can be run as printed.
    const migrate = `${MIGRATION_COMMAND}${configOptionText(given)}`;
    const lines = result.remainingIssues.map(
      (issue) => `  ${issue.path}: ${issue.message.replaceAll(MIGRATION_COMMAND, migrate)}`,
    );
    io.stderr(`warning: ${result.file} still has problems this change did not touch:\n${lines.join("\n")}\n`);
  }
}
