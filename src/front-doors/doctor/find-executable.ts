import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** Where a command was found, or why it cannot be run. */
export type ExecutableLookup = { found: string } | { problem: string };

/** Inputs of {@link findExecutable}. */
export interface FindExecutableOptions {
  /** The directory the command would start in: paths with a slash resolve against it. */
  cwd: string;
  /** The PATH the command would be looked up in. Default: none (only paths work). */
  path?: string | undefined;
  /** Windows `PATHEXT`. Default `.COM;.EXE;.BAT;.CMD` on Windows, nothing elsewhere. */
  pathExt?: string | undefined;
}

const WINDOWS_EXTENSIONS = ".COM;.EXE;.BAT;.CMD";

/**
 * Finds a command the way spawning it would: a name with a path separator is a file relative to `cwd`; a bare
 * name is searched in each PATH directory. Only reads the file system (stat, access).
 */
export async function findExecutable(
  command: string,
  options: FindExecutableOptions,
): Promise<ExecutableLookup> {
  const windows = process.platform === "win32";
  const extensions = windows
    ? ["", ...(options.pathExt ?? WINDOWS_EXTENSIONS).split(";").filter(Boolean)]
    : [""];
  if (command.trim() === "") return { problem: "the command is empty" };
  if (isAbsolute(command) || command.includes("/") || (windows && command.includes("\\"))) {
    const file = resolve(options.cwd, command);
    for (const extension of extensions) {
      if ((await executableProblem(file + extension)) === undefined) return { found: file + extension };
    }
    return { problem: (await executableProblem(file)) ?? `${file} cannot be run` };
  }
  const directories = (options.path ?? "").split(delimiter).filter((entry) => entry !== "");
  for (const directory of directories) {
    for (const extension of extensions) {
      const file = join(resolve(options.cwd, directory), command + extension);
      if ((await executableProblem(file)) === undefined) return { found: file };
    }
  }
  return { problem: `"${command}" was not found on PATH` };
}

/** Why `file` cannot be executed, or undefined when it can. */
async function executableProblem(file: string): Promise<string | undefined> {
  try {
    if (!(await stat(file)).isFile()) return `${file} is not a file`;
  } catch {
    return `${file} does not exist`;
  }
  try {
    await access(file, constants.X_OK);
    return undefined;
  } catch {
    return `${file} is not executable (chmod +x it)`;
  }
}
