import { ToolsiftError } from "../errors/index.js";
import { configOptionText } from "./config-option-text.js";

/**
 * The CONFIG_INVALID error for a `--config` file that does not exist. Only the default file may be missing
 * (it means the defaults): a path the user typed is most likely a typo, and running on defaults instead would
 * hide it. `given` is the path as typed, `file` the absolute path.
 */
export function missingConfigError(file: string, given: string): ToolsiftError {
  return new ToolsiftError(
    "CONFIG_INVALID",
    `Config file ${file} does not exist (named by --config). Check the path; to start a new file there, run toolsift config set${configOptionText(given)} <path> <value>.`,
  );
}
