import { homedir } from "node:os";
import path from "node:path";

/** Folder under the home directory used for state when `TOOLSIFT_STATE_DIR` is unset. */
const STATE_FOLDER = "state";

/** Folder under the user's home directory used when `TOOLSIFT_HOME` is unset. */
const DEFAULT_HOME_FOLDER = ".toolsift";

/** File name of the config file inside `$TOOLSIFT_HOME`. */
const CONFIG_FILE_NAME = "toolsift.json";

/** Where the config file and the state directory are. */
export interface ConfigPaths {
  /** Absolute path of the config file (it may not exist). */
  configPath: string;
  /** Absolute path of the state directory (sessions, logs). */
  stateDir: string;
  /** Absolute path of `$TOOLSIFT_HOME`. */
  home: string;
  /** Where `configPath` came from: `--config`, `TOOLSIFT_CONFIG`, or the default in `home`. */
  configSource: "option" | "env" | "default";
}

/** Inputs of {@link resolveConfigPaths}. */
export interface ResolveConfigPathsOptions {
  /** The `--config` value; wins over `TOOLSIFT_CONFIG`. Default: unset. */
  configPath?: string;
  /** Environment to read `TOOLSIFT_*` and `HOME` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Applies config.md's precedence: config from `--config`, else `TOOLSIFT_CONFIG`, else
 * `$TOOLSIFT_HOME/toolsift.json` (home default `~/.toolsift`); state from `TOOLSIFT_STATE_DIR`, else
 * `<home>/state`. Empty values count as unset; a leading `~/` is expanded; relative paths resolve
 * against the working directory.
 */
export function resolveConfigPaths(options: ResolveConfigPathsOptions = {}): ConfigPaths {
  const env = options.env ?? process.env;
  const userHome = nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE) ?? homedir();
  const absolute = (value: string) => path.resolve(expandHome(value, userHome));

  const homeValue = nonEmpty(env.TOOLSIFT_HOME);
  const home = homeValue === undefined ? path.join(userHome, DEFAULT_HOME_FOLDER) : absolute(homeValue);

  const optionValue = nonEmpty(options.configPath);
  const envValue = nonEmpty(env.TOOLSIFT_CONFIG);
  const configPath =
    optionValue !== undefined
      ? absolute(optionValue)
      : envValue !== undefined
        ? absolute(envValue)
        : path.join(home, CONFIG_FILE_NAME);
  const configSource = optionValue !== undefined ? "option" : envValue !== undefined ? "env" : "default";

  const stateValue = nonEmpty(env.TOOLSIFT_STATE_DIR);
  const stateDir = stateValue === undefined ? path.join(home, STATE_FOLDER) : absolute(stateValue);

  return { configPath, stateDir, home, configSource };
}

/** Expands a leading `~` or `~/` to the user's home directory; other paths are returned unchanged. */
export function expandHome(value: string, userHome: string): string {
  if (value === "~") return userHome;
  if (value.startsWith("~/") || value.startsWith(`~${path.sep}`)) return path.join(userHome, value.slice(2));
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
