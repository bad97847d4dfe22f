import { ToolsiftError } from "../../shared/errors/index.js";
import { configOptionText } from "./config-option-text.js";

/** What named a config file: the `--config` option or the `TOOLSIFT_CONFIG` variable. */
export type ConfigNamedBy = "--config" | "TOOLSIFT_CONFIG";

/**
 * The CONFIG_INVALID error for a config file that was named (by `--config` or `TOOLSIFT_CONFIG`) and does not
 * exist. Only the default file may be missing (it means the defaults): a path the user typed is most likely a
 * typo, and running on defaults instead would hide it. `given` is the path as typed, `file` the absolute path.
 */
export function missingConfigError(
  file: string,
  given: string,
  namedBy: ConfigNamedBy = "--config",
): ToolsiftError {
  const option = namedBy === "--config" ? configOptionText(given) : "";
  const unset = namedBy === "TOOLSIFT_CONFIG" ? ", or unset TOOLSIFT_CONFIG to use the default file" : "";
  return new ToolsiftError(
    "CONFIG_INVALID",
    `Config file ${file} does not exist (named by ${namedBy}). Check the path${unset}; to start a new file there, run toolsift config set${option} <path> <value>.`,
  );
}
