import { readFile, stat } from "node:fs/promises";
import {
  formatSettingIssues,
  MIGRATION_COMMAND,
  readToolSearchSettings,
  type ToolSearchSettings,
} from "../../core/tool-search/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import type { ToolsiftConfig } from "./config-file-types.js";
import { configOptionText } from "./config-option-text.js";
import { readConfigPath } from "./config-path.js";
import { readEnvReference } from "./env-reference.js";
import { invalidConfigError, unusableConfigError } from "./invalid-config-error.js";
import { MAX_CONFIG_FILE_BYTES } from "./limits.js";
import { missingConfigError } from "./missing-config-error.js";
import { parseConfigText } from "./parse-config-text.js";
import { resolveConfigPaths } from "./resolve-config-paths.js";
import { resolveEnvReferences } from "./resolve-env-references.js";
import { resolveStateUrl } from "./resolve-state-url.js";
import type { ConfigIssue } from "./types.js";
import { locateConfigIssues, validateConfig } from "./validate-config.js";

/** A config file as loaded: the resolved config, where it came from, and what to warn about. */
export interface LoadedConfig {
  /** The validated config with `env:NAME` values resolved; `{}` when the file does not exist. */
  config: ToolsiftConfig;
  /**
   * `tools.toolSearch` read once into Tool Search's typed settings (unset: the automatic ones): hosts pass
   * these on (`ToolSearchOptions.config`), so the value is never read again.
   */
  toolSearch: ToolSearchSettings;
  /** Absolute path of the config file. */
  path: string;
  /** False when there was no file (all defaults). */
  exists: boolean;
  /** Absolute path of the state directory. */
  stateDir: string;
  /**
   * The state database (`state.url`, else `TOOLSIFT_STATE_URL`), checked to be a `postgresql://` URL; absent:
   * state stays in files under `stateDir`. Read it here, once: it may hold a password, so print it only
   * through the state store's `redactedUrl`.
   */
  stateUrl?: string;
  /** Problems that do not stop a start: unset `env:` variables, values read from them that are invalid. */
  warnings: string[];
  /** The parsed file before `env:` resolution (`{}` when missing), for editors such as `config set`. */
  raw: unknown;
}

/** Inputs of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * The `--config` value; a file it names must exist. Default: `TOOLSIFT_CONFIG` (which must exist too), else
   * `$TOOLSIFT_HOME/toolsift.json` (which may be missing: the defaults apply).
   */
  configPath?: string;
  /** Environment for paths and `env:NAME` values. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Finds, reads, parses (JSON5) and validates the config file, then resolves `env:NAME` values. A missing
 * default file means all defaults; one named by `--config` or `TOOLSIFT_CONFIG` is CONFIG_INVALID naming the
 * path (a typo must not run on defaults). Any problem with the file throws CONFIG_INVALID listing every problem as `path: reason`; loading only
 * reads, so a bad file never changes anything.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const paths = resolveConfigPaths({ ...options, env });
  const file = paths.configPath;

  const text = await readConfigFile(file);
  if (text === undefined) {
    if (paths.configSource === "option") throw missingConfigError(file, options.configPath ?? file);
    if (paths.configSource === "env") throw missingConfigError(file, file, "TOOLSIFT_CONFIG");
    return {
      config: {},
      toolSearch: readToolSearch({}),
      path: file,
      exists: false,
      stateDir: paths.stateDir,
      ...withStateUrl(resolveStateUrl({ config: {}, env })),
      warnings: [],
      raw: {},
    };
  }

  const raw = parseConfigText(text, file);
  const issues = validateConfig(raw);
  if (issues.length > 0) {
    const given = paths.configSource === "option" ? options.configPath : undefined;
    throw invalidConfigError(file, withConfigOption(issues, given));
  }

  const resolved = resolveEnvReferences(raw as ToolsiftConfig, env);
  const warnings = [...resolved.warnings, ...checkResolvedValues(raw, resolved.config)];
  const stateUrl = resolveStateUrl({ config: resolved.config, raw, env });
  return {
    config: resolved.config,
    toolSearch: readToolSearch(resolved.config),
    path: file,
    exists: true,
    stateDir: paths.stateDir,
    ...withStateUrl(stateUrl),
    warnings,
    raw,
  };
}

/** `{ stateUrl }` when there is one (the key stays absent otherwise). */
function withStateUrl(stateUrl: string | undefined): { stateUrl?: string } {
  return stateUrl === undefined ? {} : { stateUrl };
}

/**
 * `tools.toolSearch` read once into Tool Search's own typed settings (the library owns the option;
 * validateConfig has already refused a bad value, so this never throws for a loaded file).
 */
function readToolSearch(config: ToolsiftConfig): ToolSearchSettings {
  const reading = readToolSearchSettings(config.tools?.toolSearch);
  if (reading.settings === undefined)
    throw new ToolsiftError("CONFIG_INVALID", formatSettingIssues(reading.issues));
  return reading.settings;
}

/** Issues whose fix names `toolsift doctor --fix` name the same `--config` the command was given. */
function withConfigOption(issues: readonly ConfigIssue[], given: string | undefined): ConfigIssue[] {
  const option = configOptionText(given);
  if (option === "") return [...issues];
  return issues.map((issue) => ({
    ...issue,
    message: issue.message.replaceAll(MIGRATION_COMMAND, `${MIGRATION_COMMAND}${option}`),
  }));
}

/** The file's text, or undefined when it does not exist. */
async function readConfigFile(file: string): Promise<string | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return undefined;
    throw unusableConfigError(file, describeFileError(code), error);
  }
  if (!info.isFile()) {
    throw unusableConfigError(
      file,
      "is not a regular file; point --config or TOOLSIFT_CONFIG at a JSON5 file.",
    );
  }
  const size = info.size;
  if (size > MAX_CONFIG_FILE_BYTES) {
    throw unusableConfigError(
      file,
      `the file is ${size} bytes; the limit is ${MAX_CONFIG_FILE_BYTES} bytes. Is this the right file?`,
    );
  }
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw unusableConfigError(file, describeFileError((error as { code?: unknown }).code), error);
  }
}

function describeFileError(code: unknown): string {
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "cannot be read (permission denied); check the file's permissions.";
    case "ENOTDIR":
      return "a part of the path is not a directory; check --config or TOOLSIFT_CONFIG.";
    case "ELOOP":
      return "too many symbolic links in the path.";
    default:
      return `cannot be read (${typeof code === "string" ? code : "unknown error"}).`;
  }
}

/**
 * Values read from the environment were not seen by the schema; check them now. A bad one is a warning, not a
 * refusal, like an unset one: it may belong to a provider or server this run never uses. Its value is not
 * shown (it may be a secret), only the variable's name.
 */
function checkResolvedValues(raw: unknown, resolved: unknown): string[] {
  const warnings: string[] = [];
  for (const issue of locateConfigIssues(resolved)) {
    const rawValue = issue.segments === undefined ? undefined : readConfigPath(raw, issue.segments).value;
    const reference = typeof rawValue === "string" ? readEnvReference(rawValue) : undefined;
    const message = issue.message.replace(/ \(got .*\)$/su, "");
    warnings.push(
      reference?.kind === "reference"
        ? `${issue.path}: ${message} (from environment variable ${reference.name})`
        : `${issue.path}: ${message}`,
    );
  }
  return warnings;
}
