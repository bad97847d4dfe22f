import { InvalidArgumentError } from "commander";
import JSON5 from "json5";
import { MIGRATION_COMMAND } from "../../core/tool-search/index.js";
import {
  type ConfigPathSegment,
  configOptionText,
  formatConfigPath,
  missingConfigError,
  parseConfigText,
  readConfigPath,
  resolveConfigPaths,
} from "../../runtime/config/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import {
  type EditConfigFileResult,
  editConfigFile,
  formatJson5Value,
  parseConfigPathExpression,
  readConfigSource,
} from "../config-editor/index.js";
import type { CliIo } from "./types.js";

/** Where the config file is: --config, else the environment's (TOOLSIFT_CONFIG, the default path). */
export type ConfigFileOptions = { config?: string; env: NodeJS.ProcessEnv };

/** What `toolsift config get` does: prints the value at `path` as the file has it (JSON5, or `--json`). */
export async function getConfigValue(
  options: ConfigFileOptions & { path: ConfigPathSegment[]; json?: boolean },
  io: CliIo,
): Promise<void> {
  const source = await existingFileOf(options);
  const raw = source.text === undefined ? {} : parseConfigText(source.text, source.file);
  const found = readConfigPath(raw, options.path);
  if (!found.found)
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `No value at ${formatConfigPath(options.path)}.${source.missing}`,
    );
  io.stdout(`${options.json ? JSON.stringify(found.value, null, 2) : formatJson5Value(found.value)}\n`);
}

/** What `toolsift config set` does: sets the value at `path` (JSON5, else the text as a string). */
export async function setConfigValue(
  options: ConfigFileOptions & { path: ConfigPathSegment[]; text: string },
  io: CliIo,
): Promise<void> {
  const { path } = options;
  const value = parseValue(options.text);
  const result = await editConfigFile({
    file: fileOf(options).configPath,
    edits: [{ op: "set", path, value }],
  });
  report(io, result, `${formatConfigPath(path)} = ${formatJson5Value(value)}`, options.config);
}

/** What `toolsift config unset` does: removes the value at `path` from a file that must exist. */
export async function unsetConfigValue(
  options: ConfigFileOptions & { path: ConfigPathSegment[] },
  io: CliIo,
): Promise<void> {
  const { path } = options;
  const source = await existingFileOf(options);
  const result = await editConfigFile({ file: source.file, edits: [{ op: "unset", path }] });
  report(io, result, `removed ${formatConfigPath(path)}`, options.config);
}

function fileOf(options: ConfigFileOptions) {
  return resolveConfigPaths({
    ...(options.config === undefined ? {} : { configPath: options.config }),
    env: options.env,
  });
}

/**
 * The file, which must exist when --config or TOOLSIFT_CONFIG named it (only set may create one). `missing`
 * says, for a default file that does not exist, why a lookup in it finds nothing.
 */
async function existingFileOf(options: ConfigFileOptions) {
  const paths = fileOf(options);
  const source = await readConfigSource(paths.configPath);
  if (source.text === undefined && paths.configSource === "option") {
    throw missingConfigError(paths.configPath, options.config ?? paths.configPath);
  }
  if (source.text === undefined && paths.configSource === "env") {
    throw missingConfigError(paths.configPath, paths.configPath, "TOOLSIFT_CONFIG");
  }
  const missing =
    source.text === undefined
      ? ` There is no config file at ${paths.configPath} (the defaults apply); toolsift config set creates it, toolsift init writes a starter one.`
      : "";
  return { ...source, missing };
}

/** Parses a config path argument; a malformed one is a usage error (commander's InvalidArgumentError). */
export function parseConfigPath(text: string): ConfigPathSegment[] {
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
