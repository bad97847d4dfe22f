import { writeFileAtomic } from "../../runtime/fs-atomic/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";

/** Mode of a config file `config set` creates: owner only, since it may hold keys. */
export const NEW_CONFIG_FILE_MODE = 0o600;

/**
 * Replaces the config file atomically (`writeFileAtomic`): `options.mode` is kept when given, a new file is
 * `NEW_CONFIG_FILE_MODE` (it may hold keys). A failure is CONFIG_INVALID naming the file and the reason; the
 * file is then unchanged.
 */
export async function writeConfigFile(
  file: string,
  data: string,
  options: {
    /** The replaced file's permission bits, kept exactly. Default: none, a new file gets `NEW_CONFIG_FILE_MODE`. */
    mode?: number | undefined;
  } = {},
): Promise<void> {
  const mode = options.mode;
  try {
    await writeFileAtomic(file, data, mode === undefined ? { newFileMode: NEW_CONFIG_FILE_MODE } : { mode });
  } catch (error) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `Could not write ${file} (${describeWriteError(error)}). The file was not changed.`,
      { cause: error },
    );
  }
}

/** A short reason for a failed write, e.g. `permission denied`. */
export function describeWriteError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied; check the permissions of the file and its directory";
    case "ENOSPC":
      return "no space left on the device";
    case "EROFS":
      return "the file system is read-only";
    case "ENOENT":
    case "ENOTDIR":
      return "its directory does not exist";
    default:
      return typeof code === "string" ? code : "unknown error";
  }
}
